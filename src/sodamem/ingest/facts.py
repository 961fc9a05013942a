"""From candidate facts to stored FactEvents: grounding, time resolution, entities and supersession.

``prepare_facts`` runs outside any transaction (pure over the session); ``write_facts`` runs inside the session's
transaction, so a session's turns, pieces and facts land together or not at all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sodamem.ingest.entities import entity_key, value_key
from sodamem.ingest.extract.base import AliasHint, CandidateFact, Extraction
from sodamem.ingest.grounding import GroundedSpan, ground
from sodamem.ingest.supersede import order_key, slot_of
from sodamem.ingest.timeparse import find_times, resolve_time
from sodamem.model import MessagePiece, Modality, Session, TimeSpec
from sodamem.store.facts import FactRow
from sodamem.store.forget import forgotten_key
from sodamem.store.hashes import text_hash
from sodamem.store.write_protocol import Writes

MAX_OBJECT_WORDS_AS_ENTITY = 6


@dataclass(frozen=True, slots=True)
class PreparedFact:
    candidate: CandidateFact
    spans: tuple[GroundedSpan, ...]
    mentioned_at: datetime
    occurred: TimeSpec | None
    valid_from: datetime


@dataclass(slots=True)
class PreparedSession:
    facts: list[PreparedFact] = field(default_factory=list)
    aliases: list[AliasHint] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)  # why a candidate did not become a fact


def prepare_facts(
    session: Session, pieces: Sequence[Sequence[MessagePiece]], extraction: Extraction
) -> PreparedSession:
    prepared = PreparedSession(aliases=list(extraction.aliases), rejected=list(extraction.skipped))
    for candidate in extraction.facts:
        if not 0 <= candidate.turn_index < len(session.turns):
            prepared.rejected.append(f"no turn {candidate.turn_index} in session {session.session_id}")
            continue
        turn = session.turns[candidate.turn_index]
        spans = ground(candidate, turn.text, pieces[candidate.turn_index])
        if isinstance(spans, str):
            prepared.rejected.append(spans)
            continue
        mentioned = turn.timestamp or session.timestamp
        occurred = _occurred(candidate, mentioned)
        starts = occurred.start if occurred is not None and occurred.start <= mentioned else mentioned
        prepared.facts.append(PreparedFact(candidate, tuple(spans), mentioned, occurred, starts))
    return prepared


def _occurred(candidate: CandidateFact, mentioned: datetime) -> TimeSpec | None:
    future = True if candidate.modality is Modality.PLANNED else None
    said = candidate.time_expression
    if said is not None and future is None:
        # read among its quote's words, whose verbs give its direction: "he's moving to Leeds in July" (said in May)
        # is this July, where "in July" alone is the last one
        at = candidate.quote.find(said)
        for inside in find_times(candidate.quote, mentioned) if at >= 0 else ():
            if (inside.char_start, inside.char_end) == (at, at + len(said)):
                return inside.spec
    mention = resolve_time(said or candidate.quote, mentioned, future=future)
    return mention.spec if mention is not None else None


def write_facts(
    writes: Writes,
    user: str,
    session: Session,
    session_pk: int,
    piece_pks: Mapping[tuple[int, int], int],
    prepared: PreparedSession,
    stale_slots: set[str],
    reread: Collection[int] | None = None,
) -> list[int]:
    """Store the session's facts and aliases, then recompute every slot they (or replaced facts) touch. ``reread``:
    the pieces stored before this write whose facts were made again (None: a whole session is written, every
    piece may carry a mark)."""
    moved: set[int] = set()
    for hint in prepared.aliases:
        moved |= writes.add_alias(user, hint.alias, hint.canonical)
    slots = set(stale_slots)
    # every name the facts use, in the order one fact at a time would first mention it (entities are created so)
    names = [name for fact in prepared.facts for name in (fact.candidate.subject, *(n for _, n in _roles(fact)))]
    canonical = writes.canonical_names(user, names)
    rows = [_row(canonical, session, session_pk, piece_pks, fact) for fact in prepared.facts]
    # facts the user forgot are not made again: from turns stored before (``reread``), or, when a whole session is
    # written, from the turns of a replaced copy that say the same words (their marks were carried over)
    looked_at = set(piece_pks.values()) if reread is None else set(reread)  # a live add's new pieces have no marks
    cited = {source[0] for row in rows for source in row.sources} & looked_at
    forgotten = writes.forgotten_keys(user, sorted(cited)) if cited else set()
    rows = [row for row in rows if not _forgotten(row, forgotten)]
    fact_ids = writes.insert_facts(user, rows)
    slots.update(row.slot for row in rows if row.slot is not None)
    writes.resolve_slots(user, slots)
    if moved:
        writes.reslot(user, moved)
    return fact_ids


def _forgotten(row: FactRow, forgotten: set[tuple[int, str]]) -> bool:
    return any(
        (piece_pk, forgotten_key(row.predicate, row.object, start, end)) in forgotten
        for piece_pk, start, end, _ in row.sources
    )


def _roles(fact: PreparedFact) -> tuple[tuple[str, str], ...]:
    """``(role, entity name)`` of a fact: its subject, its object where short enough to be an entity, the rest."""
    c = fact.candidate
    roles = [("subject", c.subject)]
    if c.object and len(c.object.split()) <= MAX_OBJECT_WORDS_AS_ENTITY:
        roles.append(("object", c.object))
    roles += [(r.role, r.entity) for r in c.roles]
    return tuple(dict.fromkeys(roles))


def _row(
    canonical: Mapping[str, str],
    session: Session,
    session_pk: int,
    piece_pks: Mapping[tuple[int, int], int],
    fact: PreparedFact,
) -> FactRow:
    c = fact.candidate
    subject = canonical[c.subject]
    quoted = " ".join(s.quote for s in fact.spans)
    obj = _named_owners(c.object, canonical, quoted) if c.object else c.object
    value = value_key(obj)
    valid_from = fact.valid_from.isoformat()
    first = fact.spans[0]
    text = c.text or _default_text(c)
    if subject != c.subject and text.startswith(c.subject):  # "user likes tea" -> "Maya likes tea"
        text = subject + text[len(c.subject) :]
    text = _named_owners(text, canonical, quoted)
    return FactRow(
        kind=c.kind,
        predicate=c.predicate,
        modality=c.modality,
        subject=c.subject,
        object=obj,
        polarity=c.polarity,
        text=text,
        mentioned_at=fact.mentioned_at.isoformat(),
        occurred=fact.occurred,
        valid_from=valid_from,
        slot=slot_of(c.kind, c.predicate, c.modality, entity_key(subject), value),
        order_key=order_key(valid_from, session.session_id, c.turn_index, first.char_start, c.predicate, value),
        session_pk=session_pk,
        sources=tuple(
            (piece_pks[(c.turn_index, s.piece_index)], s.char_start, s.char_end, s.quote) for s in fact.spans
        ),
        roles=_roles(fact),
        embed_hash=text_hash(text),
    )


def _named_owners(text: str, canonical: Mapping[str, str], quoted: str) -> str:
    """ "Sold my running shoes" said by "user" (who is Maya) is "... Maya's running shoes", not "user's": an owner
    the extractor wrote for "my" is named as its entity is. A possessive the quote itself holds stays as said."""
    for name, named in canonical.items():
        owner = f"{name}'s "
        if named != name and owner in text and owner not in quoted:
            text = re.sub(rf"(?<![\w']){re.escape(owner)}", f"{named}'s ", text)
    return text


def _default_text(c: CandidateFact) -> str:
    verb = c.predicate.replace("_", " ")
    negation = "not " if not c.polarity or c.modality is Modality.NEGATED else ""
    return " ".join(p for p in (c.subject, negation + verb, c.object or "") if p).strip()
