"""What the retrieval and answer layers ask of a store, in their own terms: the interface a second backend
(PostgreSQL) implements. ``SQLiteStore`` satisfies it (checked by mypy at the end of ``store/sqlite.py`` and at run
time by ``tests/test_store_boundary.py``).

Every method names the user whose memory it reads; ids are the store's row ids (``*_pk``). ``statuses`` are fact
statuses (``active``, ``superseded``; ``invalid`` facts are never asked for by the traversal). ``match`` is a
full-text query as ``retrieve/fts_query.py`` builds it (FTS5 syntax: quoted terms joined by ``OR``); another
backend translates it to its own. Results are plain typed rows (``store/rows.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Protocol, runtime_checkable

from sodamem.embed.base import Vectors
from sodamem.store.rows import (
    FactTurn,
    FtsRow,
    LinkedFact,
    Mention,
    MentioningFact,
    TurnFact,
    TurnProfile,
    TurnText,
)

MAX_ROW_ID = (1 << 63) - 1  # row ids are signed 64-bit integers in SQLite and PostgreSQL (bigint)


def is_row_id(value: int) -> bool:
    """Whether ``value`` can name a stored row: a larger number is no id, and binding it would overflow."""
    return 1 <= value <= MAX_ROW_ID


@runtime_checkable
class GraphReads(Protocol):
    """The graph tunnel (``retrieve/graph.py``): entities, the facts that mention them, fact-to-fact steps, and the
    turns facts are derived from."""

    def entity_names(self, user: str, entity_pks: Sequence[int]) -> dict[int, str]: ...

    def fact_statuses(self, user: str, fact_pks: Sequence[int], statuses: Sequence[str]) -> dict[int, str]:
        """The status of each given fact whose status is one of ``statuses``."""
        ...

    def mention_counts(
        self, user: str, entity_pks: Sequence[int], statuses: Sequence[str], cap: int = -1
    ) -> dict[int, int]:
        """How many facts (with one of ``statuses``) MENTION each entity, up to ``cap`` (-1: all); zero is absent."""
        ...

    def facts_mentioning(
        self, user: str, entity_pks: Sequence[int], statuses: Sequence[str], per_entity: int
    ) -> dict[int, list[MentioningFact]]:
        """Per entity, in id order: at most ``per_entity`` facts that MENTION it, active first, then the most
        recently mentioned, then the highest id."""
        ...

    def entities_mentioned(self, user: str, fact_pks: Sequence[int]) -> list[Mention]: ...

    def fact_links_from(self, user: str, fact_pks: Sequence[int], statuses: Sequence[str]) -> list[LinkedFact]:
        """Steps over NEIGHBOR and slot links (SUPERSEDES, CONTRADICTS, UPDATES), both ways, to facts with one of
        ``statuses``; sorted."""
        ...

    def derived_turns(self, user: str, fact_pks: Sequence[int]) -> list[FactTurn]:
        """Each distinct ``(fact, turn)`` with the fact DERIVED_FROM a piece of the turn."""
        ...


@runtime_checkable
class EvidenceReads(Protocol):
    """Evidence items (``retrieve/evidence.py``): a hit's session start and the facts drawn from its turn."""

    def session_timestamp(self, user: str, session_id: str) -> str | None: ...

    def facts_of_turn(self, user: str, session_id: str, turn_index: int) -> list[TurnFact]:
        """The facts (not invalid) drawn from the turn, by id."""
        ...


@runtime_checkable
class RankingReads(Protocol):
    """The fused ranking's own questions (``retrieve/fused.py``, ``retrieve/lexical.py``) and the offline reader's
    speaker aliases (``answer/offline.py``)."""

    def speakers(self, user: str) -> frozenset[str]:
        """Everyone who speaks in the user's memory."""
        ...

    def speaker_entities(self, user: str, speakers: Iterable[str]) -> dict[str, int]:
        """The entity each speaker is known as, for the speakers whose name is one of an entity's names."""
        ...

    def search_turns(self, user: str, match: str, limit: int) -> list[FtsRow]: ...

    def search_pieces(
        self, user: str, match: str, limit: int, *, turn_pks: Sequence[int] | None = None
    ) -> list[FtsRow]: ...

    def search_facts(self, user: str, match: str, limit: int, statuses: Sequence[str]) -> list[FtsRow]: ...

    def source_turns(self, user: str, fact_pks: Sequence[int]) -> dict[int, int]:
        """The turn each fact is drawn from, for the facts that have sources."""
        ...

    def turn_texts(self, user: str, turn_pks: Sequence[int]) -> dict[int, TurnText]: ...

    def turns_said_by(self, user: str, speakers: Sequence[str], latest: int | None = None) -> list[int]:
        """Every turn of the user said by one of ``speakers`` (only the ``latest`` of them when given), in id order."""
        ...

    def turn_mentions(self, user: str, turn_pks: Sequence[int]) -> dict[int, tuple[tuple[str, str], ...]]:
        """What the user's turns among ``turn_pks`` name, ``(words, label)`` pairs, for the turns read so far
        (``Store.put_turn_mentions``); a turn not yet read is absent."""
        ...

    def turn_term_counts(self, user: str, stems: Sequence[str]) -> tuple[dict[str, int], int]:
        """How many of the user's turns hold each index stem (held by none: absent), and how many turns there are."""
        ...


@runtime_checkable
class EntityLookups(Protocol):
    """Query analysis (``retrieve/query.py``) and the offline reader's antecedents: entities by what they are
    called."""

    def entity_pks_by_key(self, user: str, keys: Iterable[str]) -> dict[str, int]:
        """The entity each name key (``ingest/entities.py`` ``entity_key``) belongs to, for the keys with one."""
        ...

    def entity_names(self, user: str, entity_pks: Sequence[int]) -> dict[int, str]: ...

    def entities_named_with(self, user: str, word: str, limit: int) -> list[int]:
        """The user's entities whose name holds the word, best (BM25) first."""
        ...


@runtime_checkable
class TurnLookups(Protocol):
    """The fusion's questions about candidate turns (``retrieve/turn_lookup.py``); ids are the user's own."""

    def turn_profiles(self, turn_pks: Sequence[int]) -> list[TurnProfile]: ...

    def piece_turns(self, piece_pks: Sequence[int]) -> dict[int, int]:
        """The turn each piece belongs to."""
        ...

    def turn_neighbors(self, turn_pks: Sequence[int]) -> dict[int, list[int]]:
        """The adjacent turns of the same session, for the turns that have any."""
        ...

    def turn_occurred(self, turn_pks: Sequence[int]) -> dict[int, list[tuple[str, str | None]]]:
        """The occurred intervals ``(start, end)`` of the facts derived from each turn, for the turns with any."""
        ...

    def latest_turn(self) -> int:
        """The highest turn id (0 for none): a turn added later gets a higher one."""
        ...

    def turns_after(self, last: int) -> dict[int, int]:
        """``turn id -> session id`` of the turns with an id above ``last``."""
        ...


@runtime_checkable
class VectorSearch(Protocol):
    """Cosine search over one user's stored vectors of ``table`` (turns, pieces, facts, entities) under one
    embedding model; vectors are unit-length float32."""

    def search(self, user: str, table: str, query: Vectors, k: int) -> list[tuple[int, float]]:
        """``(row id, cosine)`` of the ``k`` nearest rows, best first."""
        ...

    def exact_vectors(self, user: str, table: str, ids: Sequence[int]) -> dict[int, Vectors]:
        """The stored vectors of the given rows that have one."""
        ...

    def vectors_of(self, user: str, table: str, ids: Sequence[int]) -> dict[int, Vectors]: ...


@runtime_checkable
class MemoryStore(GraphReads, EvidenceReads, RankingReads, EntityLookups, TurnLookups, Protocol):
    """Everything above, plus one consistent view for a read made of many statements (a search ranks, then
    reads) and a number that changes whenever the stored data did (in-memory indexes compare it)."""

    def snapshot(self) -> AbstractContextManager[None]: ...

    @property
    def generation(self) -> int: ...
