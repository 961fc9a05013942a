"""What the graph tunnel (retrieve/graph.py) asks the store, each fact and entity read once per store generation.

The walk asks ~16 statements per search (``GraphReads``), mostly about the same few facts and entities from one
search to the next: with a served memory's 4 searches per add, reading them again was ~10% of a search's CPU
(``bench serve``). ``GraphLookup`` answers the same questions, with the same answers in the same order, and asks
the store only about the facts and entities it has not seen. The searcher keeps one per store generation (any write
through the store, or committed by another process, starts a fresh one); what stays true across writes that
delete no fact, entity or piece is handed on to the next one:

- an entity's name (names are never updated in place; an entity merged into another is deleted);
- the entities a fact MENTIONS and the turns it is DERIVED_FROM (both written with the fact and never added to
  later; an entity merge rewrites MENTIONS links only together with deleting the merged entity; forgetting a piece
  drops its DERIVED_FROM links along with it). Only non-empty ones are handed on, so an id asked about before its
  fact existed is asked again.

Statuses, mention counts, the facts mentioning an entity and fact-to-fact links change with adds (new facts,
NEIGHBOR links, supersession), so they are kept for one generation only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from sodamem.retrieve.turn_lookup import memoized
from sodamem.store.protocol import GraphReads
from sodamem.store.rows import FactTurn, LinkedFact, Mention, MentioningFact

_Row = TypeVar("_Row", Mention, FactTurn, LinkedFact)
_EVERY_STATUS = ("active", "superseded", "invalid")
CARRY_TABLES = ("facts", "entities", "pieces")  # a deletion in any of these ends what is handed on


@dataclass(slots=True)
class _UserGraph:
    # Handed on across generations while nothing in CARRY_TABLES is deleted:
    names: dict[int, str] = field(default_factory=dict)
    mentioned: dict[int, tuple[Mention, ...]] = field(default_factory=dict)  # fact -> its MENTIONS links
    derived: dict[int, tuple[FactTurn, ...]] = field(default_factory=dict)  # fact -> (fact, turn)s
    # This generation only:
    statuses: dict[int, str] = field(default_factory=dict)  # fact -> status ("" for none of the user's)
    counts: dict[tuple[tuple[str, ...], int], dict[int, int]] = field(default_factory=dict)
    mentioning: dict[tuple[tuple[str, ...], int], dict[int, tuple[MentioningFact, ...]]] = field(default_factory=dict)
    links: dict[tuple[str, ...], dict[int, tuple[LinkedFact, ...]]] = field(default_factory=dict)

    def carried(self) -> _UserGraph:
        return _UserGraph(
            dict(self.names),
            {pk: rows for pk, rows in self.mentioned.items() if rows},
            {pk: rows for pk, rows in self.derived.items() if rows},
        )


class GraphLookup:
    """``GraphReads`` over ``store``, memoized; ``carried_of``: an earlier lookup, of a generation since which no
    fact, entity or piece was deleted (``store.deletions``), whose names, mentions and derivations are kept."""

    def __init__(self, store: GraphReads, *, carried_of: GraphLookup | None = None) -> None:
        self._store = store
        self._users: dict[str, _UserGraph] = (
            {user: graph.carried() for user, graph in carried_of._users.items()} if carried_of is not None else {}
        )

    def _of(self, user: str) -> _UserGraph:
        graph = self._users.get(user)
        if graph is None:
            graph = self._users[user] = _UserGraph()
        return graph

    def entity_names(self, user: str, entity_pks: Sequence[int]) -> dict[int, str]:
        names = self._of(user).names
        missing = [pk for pk in dict.fromkeys(entity_pks) if pk not in names]
        if missing:
            names.update(self._store.entity_names(user, missing))
        return {pk: names[pk] for pk in dict.fromkeys(entity_pks) if pk in names}

    def fact_statuses(self, user: str, fact_pks: Sequence[int], statuses: Sequence[str]) -> dict[int, str]:
        known = memoized(
            self._of(user).statuses,
            fact_pks,
            lambda pks: self._store.fact_statuses(user, pks, _EVERY_STATUS).items(),
            default="",
        )
        return {pk: status for pk, status in known.items() if status in statuses}

    def mention_counts(
        self, user: str, entity_pks: Sequence[int], statuses: Sequence[str], cap: int = -1
    ) -> dict[int, int]:
        memo = self._of(user).counts.setdefault((tuple(statuses), cap), {})
        fetch = lambda pks: self._store.mention_counts(user, pks, statuses, cap).items()  # noqa: E731
        counts = memoized(memo, sorted(set(entity_pks)), fetch, default=0)
        return {pk: count for pk, count in counts.items() if count}

    def facts_mentioning(
        self, user: str, entity_pks: Sequence[int], statuses: Sequence[str], per_entity: int
    ) -> dict[int, list[MentioningFact]]:
        memo = self._of(user).mentioning.setdefault((tuple(statuses), per_entity), {})

        def fetch(pks: list[int]) -> Iterable[tuple[int, tuple[MentioningFact, ...]]]:
            return (
                (pk, tuple(facts))
                for pk, facts in self._store.facts_mentioning(user, pks, statuses, per_entity).items()
            )

        found = memoized(memo, sorted(set(entity_pks)), fetch, default=())
        return {pk: list(facts) for pk, facts in found.items() if facts}

    def entities_mentioned(self, user: str, fact_pks: Sequence[int]) -> list[Mention]:
        fetch = lambda pks: self._store.entities_mentioned(user, pks)  # noqa: E731
        return _rows_by_fact(self._of(user).mentioned, fact_pks, fetch)

    def fact_links_from(self, user: str, fact_pks: Sequence[int], statuses: Sequence[str]) -> list[LinkedFact]:
        memo = self._of(user).links.setdefault(tuple(statuses), {})
        return sorted(_rows_by_fact(memo, fact_pks, lambda pks: self._store.fact_links_from(user, pks, statuses)))

    def derived_turns(self, user: str, fact_pks: Sequence[int]) -> list[FactTurn]:
        return _rows_by_fact(self._of(user).derived, fact_pks, lambda pks: self._store.derived_turns(user, pks))


def _rows_by_fact(
    memo: dict[int, tuple[_Row, ...]], fact_pks: Sequence[int], fetch: Callable[[list[int]], Sequence[_Row]]
) -> list[_Row]:
    """The rows of each fact (rows whose first field is the fact), fetched for the facts not seen yet."""

    def grouped(pks: list[int]) -> Iterable[tuple[int, tuple[_Row, ...]]]:
        by_fact: dict[int, list[_Row]] = {pk: [] for pk in pks}
        for row in fetch(pks):
            by_fact[row[0]].append(row)
        return ((pk, tuple(rows)) for pk, rows in by_fact.items())

    found = memoized(memo, fact_pks, grouped)
    return [row for rows in found.values() for row in rows]
