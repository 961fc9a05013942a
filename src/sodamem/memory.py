"""Memory: the one obvious entry point. Wires the store, ingestion and search; owns no global state."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import IO

from sodamem.answer.ask import ask as answer_question
from sodamem.answer.types import Answer
from sodamem.bench.metrics import count_tokens
from sodamem.dump import dump_lines, load_dump
from sodamem.embed.base import Embedder
from sodamem.embed.resolve import SETTING_KEY, resolve_embedder
from sodamem.errors import AmbiguousIdError, InputError, NotFoundError
from sodamem.ingest.append import append_messages
from sodamem.ingest.embedding import embed_missing, embed_queued
from sodamem.ingest.extract import DEFAULT_EXTRACTOR, load_extractor
from sodamem.ingest.extract.base import Extractor
from sodamem.ingest.formats import InputFormat, load_sessions
from sodamem.ingest.formats.common import check_encodable, check_time
from sodamem.ingest.mentions import annotate_missing
from sodamem.ingest.messages import MessageLike, day_session_id, to_messages
from sodamem.ingest.neighbors import link_similar_facts
from sodamem.ingest.pipeline import ProgressCallback, ingest_sessions
from sodamem.ingest.seen_sessions import SeenSessions
from sodamem.instants import require_time
from sodamem.keys import KeyRing
from sodamem.lookups import Lookups
from sodamem.model import DEFAULT_USER, Message, Session
from sodamem.records import (
    AddedTurn,
    AddReport,
    FactRecord,
    ForgetReport,
    ImportReport,
    IngestReport,
    PieceRecord,
    SearchHit,
    SessionRecord,
    SessionSummary,
    TurnRecord,
    UserStats,
)
from sodamem.retrieve.cutoff import context_said_by, hits_said_by, said_by, turns_said_by
from sodamem.retrieve.decompose import QueryDecomposer, load_decomposer
from sodamem.retrieve.evidence import evidence_items
from sodamem.retrieve.focus import focus_items
from sodamem.retrieve.mentions import Annotator, LazySpacyAnnotator, resolve_annotator
from sodamem.retrieve.pack import EvidencePack, build_pack
from sodamem.retrieve.presets import fused_settings
from sodamem.retrieve.query import require_words
from sodamem.retrieve.search import Searcher, SearchMode, SearchSettings
from sodamem.store.forget import Selector
from sodamem.store.integrity import CheckReport
from sodamem.store.opening import open_store
from sodamem.store.protocol import is_row_id
from sodamem.store.write_protocol import Store
from sodamem.users import check_user_name

MAX_K = 10_000  # hits a search may ask for; more is a mistake, and a number past 64 bits cannot reach SQL


class Memory:
    """A user's (or several users') memory in one SQLite file (``":memory:"`` for a throwaway one).

    Every read is scoped to one user: ``user`` here is the default, each method can name another.
    """

    def __init__(
        self,
        path: str | Path = ":memory:",
        *,
        user: str = DEFAULT_USER,
        embedder: Embedder | str | None = None,
        extractor: Extractor | str | None = DEFAULT_EXTRACTOR,
        search_settings: SearchSettings | None = None,
        annotator: Annotator | str | None = "auto",
        decomposer: QueryDecomposer | str | None = None,
        sqlite_synchronous: str | None = None,
    ) -> None:
        """``embedder``: an Embedder, a spec (``"minilm"``, ``"minilm-int8"``, ``"e5-small"``, ``"mpnet"``,
        ``"fake"``, ``"auto"``, ``"none"``), or None for the one this database was built with (lexical search only
        if none); a spec other than the database's is refused (``EmbedderMismatchError``). Models load lazily, on
        first use. ``extractor``: ``"rules"`` (offline, the default), ``"llm"``, an Extractor, or None /
        ``"none"`` to store dialogue without facts. ``annotator``: what reads the things a turn names for the
        answer-type tunnel, when turns are stored: ``"auto"`` (spaCy when the ``types`` extra is installed),
        ``"spacy"``, an Annotator, or None / ``"none"``. ``decomposer``: query decomposition by an LLM
        (``retrieve/decompose.py``): None / ``"none"`` (the default: the search stays offline), ``"auto"`` (the
        configured LLM, none when there is none), ``"llm"``, or a QueryDecomposer. ``sqlite_synchronous``: for an
        SQLite file, ``"NORMAL"`` (None, the default: a commit does not wait for the disk, so a power cut may lose the
        newest adds) or ``"FULL"`` (each commit syncs the WAL first: a returned add survives a power cut, as on
        PostgreSQL by default); a ``ValueError`` for any other value, or for a PostgreSQL URL."""
        self.user = check_user_name(user)
        self.cutoff: datetime | None = None  # a view of the memory at a past time (``at``): nothing said later
        self._owns_decomposer = decomposer is None or isinstance(decomposer, str)
        self.store: Store = open_store(path, sqlite_synchronous=sqlite_synchronous)
        try:
            self.embedder, self._embedder_spec = resolve_embedder(embedder, self.store.get_setting(SETTING_KEY))
            self.extractor = load_extractor(extractor) if isinstance(extractor, str) else extractor
            self.annotator = resolve_annotator(annotator)
            self.decomposer: QueryDecomposer | None = (
                decomposer if isinstance(decomposer, QueryDecomposer) else load_decomposer(decomposer)
            )
        except BaseException:
            self.store.close()  # a refused embedder or extractor must not leave the file open
            raise
        self.searcher = Searcher(self.store, self.embedder, search_settings, self.annotator, self.decomposer)
        self._seen_sessions = SeenSessions()  # sessions this memory's adds left: the next add plans from them
        if self.embedder is not None and self.store.any_queued():
            embed_queued(self.store, self.embedder)  # turns a process added but did not live to embed

    def close(self) -> None:
        if self.cutoff is not None:
            return  # a view (``at``): the memory it was made from owns the store
        if self._owns_decomposer and self.decomposer is not None:
            self.decomposer.close()
        self.store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def at(self, when: datetime) -> Memory:
        """What this memory knew at ``when``, read-only: searches, evidence and answers (``ask(memory.at(t),
        ...)``) read only turns said by then, with ``now`` defaulting to ``when``; facts are those said by then,
        each with its status and links of then (one replaced only later is active); a fact's history ends there;
        turns, sessions and hit contexts said later are not found; only turns said by then rank (term statistics
        still span the whole store).
        The view shares this memory's store: closing the view (``with memory.at(t) as then:``) leaves it open."""
        require_time(when, "when")
        view = copy.copy(self)
        view.cutoff = when if self.cutoff is None or said_by(when.isoformat(), self.cutoff) else self.cutoff
        return view

    def asked_at(self, now: datetime | None = None) -> datetime:
        """When a question is asked: ``now`` if given, else the time this memory is seen at (``at``), else now."""
        return now or self.cutoff or datetime.now()

    def _refuse_writes_to_a_view(self, what: str = "is read-only") -> None:
        if self.cutoff is not None:
            raise InputError(f"a memory seen at {self.cutoff.isoformat()} {what}: use the memory itself")

    # -- ingestion -------------------------------------------------------------------------------------------

    def ingest(
        self,
        source: str | Path | Iterable[Session],
        *,
        format: InputFormat | str = InputFormat.AUTO,
        user: str | None = None,
        replace: bool = False,
        progress: ProgressCallback | None = None,
        embed_progress: ProgressCallback | None = None,
    ) -> IngestReport:
        """Ingest a file (generic JSON/JSONL, LoCoMo or LongMemEval) or Session objects.

        Raises ``InputError`` for bad input and ``SessionConflictError`` when a stored session id would get
        different content without ``replace=True``; in both cases nothing is written.
        Whose memory each session lands in, first that applies: this call's ``user``; the session's own ``user``
        (the generic format's ``"user"`` field; LoCoMo and LongMemEval name none); this memory's ``user``.
        """
        self._refuse_writes_to_a_view()
        from_file = isinstance(source, str | Path)
        sessions = load_sessions(source, format) if isinstance(source, str | Path) else list(source)
        for position, given in enumerate(sessions):
            if not isinstance(given, Session):
                raise InputError(
                    f"expected a Session (or a file path), got {type(given).__name__}", field=f"[{position}]"
                )
        named = self._owner(user) if user is not None else None
        owned = [(named or self._owner(session.user or None), session) for session in sessions]
        self._remember_embedder()  # from now on new turns are queued for vectors in their own transaction
        try:
            report = ingest_sessions(self.store, owned, replace=replace, progress=progress, extractor=self.extractor)
        except InputError as exc:
            if from_file and exc.file is None:
                raise exc.with_file(str(source)) from None
            raise
        self.store.compact_text_index([owner for owner, _ in owned])
        self.store.refresh_planner_statistics()
        report.embedded = self.embed_missing(progress=embed_progress)
        self._read_mentions()
        if self.searcher.index is not None and report.fact_ids:
            link_similar_facts(self.store, self.searcher.index, report.fact_ids)
        return report

    def add(
        self,
        messages: MessageLike | Iterable[MessageLike],
        *,
        session_id: str | None = None,
        user: str | None = None,
        timestamp: datetime | None = None,
        speaker: str = "user",
    ) -> AddReport:
        """Remember messages the moment they are said: a new ``session_id`` starts a session, a stored one grows.

        ``messages``: a ``Message``, a dict ``{"speaker"|"role", "text", "id"?, "timestamp"?, "caption"?}``, a
        plain string (said by ``speaker``), or a list of them. A message without its own time is dated
        ``timestamp`` (default: now); without an id it gets ``<session_id>:<turn index>``. Without a
        ``session_id`` the batch joins the session of the day its first message was said (``"2026-12-05"``):
        one session a day, whichever process adds to it; the report names it. A message id already
        stored with the same content is skipped; with other content, ``MessageConflictError`` and nothing is
        written. The turns, their pieces and facts land in one transaction; vectors right after it, and what the
        turns name (the answer-type tunnel's mentions) where spaCy is loaded in this process already.
        """
        self._refuse_writes_to_a_view()
        owner = self._owner(user)
        if session_id is not None:
            if not isinstance(session_id, str) or not session_id.strip():
                raise InputError("is empty", field="session_id")
            check_encodable(session_id, session=None, field="session_id")
        if timestamp is not None:
            check_time(require_time(timestamp, "timestamp"), session=None, field="timestamp")
        batch = to_messages(messages, speaker=speaker)
        when = timestamp or datetime.now().replace(microsecond=0)
        session_id = session_id if session_id is not None else self._session_for(owner, batch, when)
        self._remember_embedder()
        result = append_messages(self.store, owner, session_id, batch, when, self.extractor, self._seen_sessions)
        report = AddReport(
            user=owner,
            session_id=session_id,
            session_created=result.session_created,
            added=[
                AddedTurn(session_id, t.index, t.turn_id, t.speaker, (t.timestamp or when).isoformat())
                for t in result.added
            ],
            unchanged=result.unchanged,
            facts_added=len(result.fact_ids),
            fact_ids=result.fact_ids,
            facts_rejected=result.facts_rejected,
            session_reextracted=result.session_reextracted,
        )
        if result.turn_pks:
            self.store.refresh_planner_statistics()  # two reads by key unless the memory doubled
        if self.embedder is not None and result.turn_pks:
            report.embedded = embed_queued(self.store, self.embedder, result.turn_pks, user=owner)
            if self.searcher.index is not None and result.fact_ids:
                link_similar_facts(self.store, self.searcher.index, result.fact_ids)
            self._read_mentions(result.turn_pks, load=False)
        return report

    def _session_for(self, owner: str, batch: list[Message], when: datetime) -> str:
        """The session a batch without a session id joins: the one that holds its messages' ids already (a message
        sent again after midnight is recognised, not stored twice), else that of its first message's day."""
        ids = {m.id for m in batch if m.id is not None}
        holding = {row.session_id for i in sorted(ids) for row in self.store.turns_by_turn_id(owner, i, None)}
        return holding.pop() if len(holding) == 1 else day_session_id(batch, when)

    def forget(
        self,
        *,
        session_id: str | None = None,
        turn_id: str | None = None,
        fact_id: int | None = None,
        before: datetime | None = None,
        everything: bool = False,
        user: str | None = None,
        dry_run: bool = False,
    ) -> ForgetReport:
        """Forget a session, a turn (``turn_id``, narrowed by ``session_id``: a turn id several sessions share
        raises ``AmbiguousIdError`` without one), a fact, everything said before a time, or everything of the user;
        ``dry_run`` reports what would go and changes nothing.

        The text goes for good: turns, pieces, FTS rows, cached vectors, facts left without a source, entities
        only they named; facts superseded only by forgotten ones are active again. An audit record keeps the
        counts and ids, never the text. Raises ``NotFoundError`` when the selector matches nothing."""
        self._refuse_writes_to_a_view()
        owner = self._owner(user)
        if before is not None:
            require_time(before, "before")
        if session_id is not None and not session_id.strip():
            raise InputError("is empty", field="session_id")  # as turn() says: a blank id narrows nothing
        selector = Selector(session_id, turn_id, fact_id, before, everything)
        if len(selector.named()) != 1:
            raise InputError(
                f"name exactly one of: a session, a turn, a fact, a time (before) or everything (got: "
                f"{', '.join(selector.named()) or 'none'})"
            )
        if fact_id is not None and not is_row_id(fact_id):
            raise NotFoundError(f"nothing to forget for user {owner!r}: no fact {fact_id}")
        if turn_id is not None and session_id is None:
            self.turn(turn_id, user=owner)  # a turn id several sessions share: AmbiguousIdError, nothing planned
        # Every writer's lock, not only this user's: forgetting deletes cached vectors that other users' rows may
        # share, and must not race their writes (store/postgres/store.py).
        with self.store.writing() as writes:
            plan = writes.plan_forget(owner, selector)
            if turn_id is not None and session_id is None and len(plan.turn_pks) > 1:  # shared since the check
                raise AmbiguousIdError(f"turn id {turn_id!r} exists in several sessions; name the session")
            if not plan.turn_pks and not plan.fact_pks:
                raise NotFoundError(f"nothing to forget for user {owner!r}: {json.dumps(selector.describe())}")
            report = ForgetReport(
                owner, selector.describe(), dry_run, plan.session_ids, plan.turn_refs, plan.fact_pks,
                plan.trimmed_fact_pks,
            )  # fmt: skip
            if dry_run:
                report.counts = writes.preview_forget(owner, plan)
                return report
            report.counts = writes.apply_forget(owner, plan)
            ids: dict[str, list[object]] = {"sessions": [*plan.session_ids], "turns": [*plan.turn_refs]}
            ids["facts"] = [*plan.fact_pks]
            writes.log_forget(owner, selector, report.counts, ids)
        report.files_scrubbed = self.store.scrub(owner)
        return report

    @property
    def keys(self) -> KeyRing:
        """The API keys of the server stored in this database (each key reaches exactly one user)."""
        return KeyRing(self.store)

    def forget_log(self, *, user: str | None = None) -> list[dict[str, object]]:
        """The audit record of what was forgotten: when, by which selector, counts and ids (never the text)."""
        return self.store.forget_log(self._owner(user))

    def _owner(self, user: str | None) -> str:
        """The user a call names (``user=``), else this memory's; a blank name is an ``InputError``."""
        return self.user if user is None else check_user_name(user)

    def _remember_embedder(self) -> None:
        """Record this memory's embedder in the database (once): later opens use it, and the store queues every
        new turn for its vectors inside the turn's own transaction (migration 0009), so a process killed before
        embedding leaves work the next open finishes."""
        if (
            self.embedder is not None
            and self._embedder_spec is not None
            and self.store.get_setting(SETTING_KEY) != self._embedder_spec
        ):
            self.store.set_setting(SETTING_KEY, self._embedder_spec)

    def embed_missing(self, *, progress: ProgressCallback | None = None) -> int:
        """Embed every stored turn and piece that has no vector for this memory's embedder (cached by text)."""
        if self.embedder is None:
            return 0
        self._remember_embedder()
        embedded = embed_missing(self.store, self.embedder, progress=progress)
        embed_queued(self.store, self.embedder)  # all is embedded now: only empties the queue
        return embedded

    def _read_mentions(self, turn_pks: list[int] | None = None, *, load: bool = True) -> None:
        """Store what new turns (``turn_pks``; None: every turn without) name, for the answer-type tunnel; only
        with an embedder, which the tunnel needs. ``load=False`` (an add): only where spaCy is loaded already, since
        its load (~3 s) would otherwise come with every one-shot ``sodamem add`` and a server worker's first add;
        turns left without are read when a search first needs them, and stored by the next ingest or repair."""
        annotator = self.annotator
        if self.embedder is None or annotator is None:
            return
        if not load and isinstance(annotator, LazySpacyAnnotator) and not annotator.loaded:
            return
        annotate_missing(self.store, annotator, turn_pks=turn_pks)

    def repair(self) -> None:
        """Rebuild every full-text index from the rows, give every fact the slot and status today's supersession
        rules give it (a store written by an older version), and embed what has no vector and read what no turn's
        mentions are stored for (with an embedder)."""
        self.store.rebuild_fts()
        self.store.reslot_facts()
        self.embed_missing()
        self._read_mentions()

    def check(self) -> CheckReport:
        """Check the whole database (every user) and change nothing: SQLite's integrity and foreign keys, the
        full-text indexes against their tables, pieces and fact quotes against their turns, every fact sourced,
        no session without turns, links that point at rows, and a vector for every turn and piece under the
        embedder the database records. ``report.ok`` when sound, else ``report.problems``."""
        return self.store.check()

    # -- answers ---------------------------------------------------------------------------------------------

    def ask(
        self,
        question: str,
        *,
        now: datetime | None = None,
        offline: bool = False,
        budget_tokens: int = 1_500,
        max_steps: int = 3,
        user: str | None = None,
    ) -> Answer:
        """A cited answer (``sodamem.answer.ask.ask``): the LLM planner and reader when a model is configured
        (``SODAMEM_LLM_*``), the offline reader otherwise or with ``offline``. ``abstained`` when the memory holds
        no answer; ``citations`` name session, turn, character span and time. ``now``: the time
        the question's words ("last month") refer from. A question without a letter or digit raises ``InputError``."""
        return answer_question(
            self, question, now=now, offline=offline, budget_tokens=budget_tokens, max_steps=max_steps, user=user
        )

    # -- search ----------------------------------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        user: str | None = None,
        mode: SearchMode | str = SearchMode.AUTO,
        now: datetime | None = None,
        preset: str = "default",
    ) -> list[SearchHit]:
        """Cited hits, best first, one per turn, with neighbouring turns as context.

        ``mode``: ``auto``/``sodamem`` (every tunnel, validity gates, density fusion, temporal bonus), or the flat
        ``bm25``, ``dense``, ``hybrid-rrf``. ``now``: the time the question's words ("last month") refer from
        (default: now). ``preset``: a named weighting or ablation (``retrieve.presets.PRESET_NAMES``),
        optionally with changed settings, ``"default+session_share=0.3"`` (``retrieve.overrides``). A query
        without a letter or digit raises ``InputError``.
        """
        require_words(query, "query")
        if not 1 <= k <= MAX_K:
            raise InputError(f"must be from 1 to {MAX_K}, not {k}", field="k")
        if preset != "default":
            try:
                fused_settings(preset)
            except ValueError as exc:
                raise InputError(str(exc), field="preset") from None
        if self.cutoff is None:
            return self.searcher.search(self._owner(user), query, k, mode, now=now, preset=preset)
        return self._search_at(self.cutoff, self._owner(user), query, k, mode, now or self.cutoff, preset)

    def _search_at(
        self, cutoff: datetime, owner: str, query: str, k: int, mode: SearchMode | str, now: datetime, preset: str
    ) -> list[SearchHit]:
        """The best ``k`` hits said by ``cutoff``: only turns said by then rank, and seed no other tunnel; a flat
        search is asked for more until ``k`` of them are found, or it has no more to give."""
        within = turns_said_by(self.store, owner, cutoff)
        depth = k
        while True:
            hits = self.searcher.search(owner, query, depth, mode, now=now, preset=preset, within=within)
            kept = hits_said_by(hits, cutoff)
            if len(kept) >= k or len(hits) < depth or depth >= MAX_K * 4:
                return context_said_by(self.store, owner, kept[:k], cutoff)
            depth *= 4

    def evidence(
        self,
        query: str,
        *,
        budget_tokens: int = 1_000,
        k: int = 40,
        user: str | None = None,
        now: datetime | None = None,
        preset: str = "default",
        mode: SearchMode | str = SearchMode.AUTO,
        line_dates: bool = False,
        focus_tokens: int | None = None,
    ) -> EvidencePack:
        """The best evidence (turns and the facts derived from them) cut to a token budget, grouped by session
        in time order, with ids to cite (``E1``...) and resolved dates beside relative time words. ``mode`` is the
        search's (a flat ``bm25`` pack measures what the memory's own ranking adds to an answer); ``line_dates``:
        each line names the day it was said (``EvidenceItem.render``); ``focus_tokens``: a turn line longer than
        this is cut to its sentences that best match the query, so the budget holds more turns
        (``retrieve.focus``)."""
        owner = self._owner(user)
        with self.store.snapshot():
            hits = self.search(query, k=k, user=owner, now=now, preset=preset, mode=mode)
            held = {f.id for f in self.facts(user=owner)} if self.cutoff is not None else None
            items = evidence_items(self.store, owner, hits, held)
        if focus_tokens is not None:
            if focus_tokens < 1:
                raise InputError(f"focus_tokens must be at least 1, got {focus_tokens}", field="focus_tokens")
            items = focus_items(items, hits, query, focus_tokens, count_tokens)
        return build_pack(items, budget_tokens, count_tokens, line_dates=line_dates)

    # -- lookups (sodamem/lookups.py) --------------------------------------------------------------------------

    def session(
        self, session_id: str, *, user: str | None = None, window: tuple[int, int] | None = None
    ) -> SessionRecord:
        """A session with its turns and their pieces; with ``window=(first, last)``, only the turns numbered
        ``first`` to ``last`` (both included), read without the rest."""
        return self._lookups(user).session(session_id, window)

    def sessions(self, *, user: str | None = None) -> list[SessionSummary]:
        """The user's sessions, oldest first, with their turn and fact counts (a view at a past time: the
        sessions begun by then)."""
        return self._lookups(user).sessions()

    def turn(self, turn_id: str, *, session_id: str | None = None, user: str | None = None) -> TurnRecord:
        """A turn by its source id (``D3:7``, ``s01:4``); ``session_id`` narrows an id several sessions share."""
        return self._lookups(user).turn(turn_id, session_id)

    def piece(self, piece_ref: str, *, session_id: str | None = None, user: str | None = None) -> PieceRecord:
        """A piece by ``<turn_id>#<piece index>`` or by its numeric id."""
        return self._lookups(user).piece(piece_ref, session_id)

    def facts(
        self,
        *,
        status: str = "active",
        as_of: datetime | None = None,
        subject: str | None = None,
        user: str | None = None,
    ) -> list[FactRecord]:
        """Facts by status (active, superseded, invalid, all), or those holding ``as_of`` a time; by subject."""
        return self._lookups(user).facts(status, as_of, subject)

    def fact(self, fact_id: int, *, user: str | None = None) -> FactRecord:
        return self._lookups(user).fact(fact_id)

    def history(self, fact_id: int, *, user: str | None = None) -> list[FactRecord]:
        """The fact's slot, oldest first: what it replaced and what replaced it."""
        return self._lookups(user).history(fact_id)

    def _lookups(self, user: str | None) -> Lookups:
        return Lookups(self.store, self._owner(user), self.cutoff)

    def stats(self, *, all_users: bool = False, user: str | None = None) -> list[UserStats]:
        """Counts per user: of ``user`` (default: this memory's), or of every user. Of the store as it is, on a
        view at a past time too (``at``)."""
        return self.store.stats(None if all_users else self._owner(user))

    # -- export and import -------------------------------------------------------------------------------------

    def export(self, *, user: str | None = None) -> Iterator[str]:
        """The user's memory as dump lines, each ending in a newline (docs/dump-format.md): sessions with turns
        and pieces, entities, facts with status, validity, sources and roles, and links. Read in one snapshot
        before the first line is returned; ``NotFoundError`` when the user holds nothing."""
        self._refuse_writes_to_a_view("exports everything")
        owner = self._owner(user)
        dump = self.store.read_dump(owner)
        if not (dump.sessions or dump.entities or dump.facts):
            raise NotFoundError(f"user {owner!r} holds nothing to export")
        return dump_lines(dump)

    def import_dump(self, source: str | Path | IO[str], *, user: str | None = None) -> ImportReport:
        """Restore a dump (a file or text stream) under ``user`` (default: the dump's own) in one transaction,
        then embed what this memory's embedder lacks.

        The whole dump is validated first: bad input raises ``InputError`` naming the line and field and writes
        nothing. The user must hold nothing yet (importing the very same dump again changes nothing); else
        ``SessionConflictError`` names a session it already has, or ``InputError`` (field ``user``).
        """
        self._refuse_writes_to_a_view()
        dump = load_dump(source)
        self._remember_embedder()
        report = self.store.write_dump(self._owner(user) if user is not None else dump.user, dump)
        if not report.unchanged:
            self.store.refresh_planner_statistics()
            report.embedded = self.embed_missing()
            self._read_mentions()
        return report
