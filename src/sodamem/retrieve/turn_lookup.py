"""What the fusion asks the store about candidate turns, each fetched once.

A search fuses up to twice (before and after the feedback query) over mostly the same candidates, and an agent's
searches between two ingests meet the same turns again, so each turn's row (speaker, session, time,
self-disclosure flags), its neighbours and the occurred times of its facts are looked up once and kept. The
searcher keeps one lookup per store generation: any write through the store, or committed by another process
(``PRAGMA data_version``), starts a fresh one. Turn rows are never updated in place, so a write that deleted no
turn (an add, an ingest) hands the rows read so far to the next lookup, and the neighbours of every turn outside
the sessions that gained a turn (new turns get ids above any read before); occurred times, which an add's facts
can change, are read again. With one client adding, nearly every search of a server followed a write and read
the neighbours of ~600 candidate turns again (``bench serve``). The turn of each piece the piece tunnels reach is
kept the same way: a piece never moves to another turn, and is deleted only with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from sodamem.retrieve.disclosure import addresses_listener, asks, only_asks
from sodamem.store.protocol import TurnLookups

_Value = TypeVar("_Value")


@dataclass(frozen=True, slots=True)
class TurnRow:
    speaker: str
    session_pk: int
    said_at: str | None
    addresses_listener: bool
    only_asks: bool
    asks: bool = False  # asks something, whatever else it says (disclosure.asks)


class TurnLookup:
    def __init__(self, store: TurnLookups, *, rows_of: TurnLookup | None = None) -> None:
        """``rows_of``: an earlier lookup whose turn rows are still true (no turn was deleted since)."""
        self._store = store
        self._rows: dict[int, TurnRow] = rows_of._rows if rows_of is not None else {}
        self._piece_turns: dict[int, int] = rows_of._piece_turns if rows_of is not None else {}
        self._neighbors: dict[int, tuple[int, ...]] = {}
        if rows_of is None:
            # Read before any neighbours are: a turn added later gets a higher id, and the next lookup sees it.
            self._last_turn = store.latest_turn()
        else:
            added = store.turns_after(rows_of._last_turn)
            self._last_turn = max([rows_of._last_turn, *added])
            grown = set(added.values())
            self._neighbors = {
                pk: others
                for pk, others in rows_of._neighbors.items()
                if pk in self._rows and self._rows[pk].session_pk not in grown
            }
        self._occurred: dict[int, tuple[tuple[str, str | None], ...]] = {}

    def rows(self, turn_pks: Iterable[int]) -> dict[int, TurnRow]:
        return memoized(self._rows, turn_pks, self._fetch_rows)

    def piece_turns(self, piece_pks: Iterable[int]) -> dict[int, int]:
        """The turn of each piece (pieces the store no longer holds are left out)."""
        return memoized(self._piece_turns, piece_pks, lambda pks: self._store.piece_turns(pks).items())

    def neighbors(self, turn_pks: Iterable[int]) -> dict[int, tuple[int, ...]]:
        """Adjacent turns of the same session (empty for a turn without any)."""
        return memoized(self._neighbors, turn_pks, self._fetch_neighbors, default=())

    def occurred(self, turn_pks: Iterable[int]) -> dict[int, tuple[tuple[str, str | None], ...]]:
        """The occurred intervals ``(start, end)`` of the facts derived from each turn (empty for none)."""
        return memoized(self._occurred, turn_pks, self._fetch_occurred, default=())

    def _fetch_rows(self, pks: list[int]) -> Iterator[tuple[int, TurnRow]]:
        for pk, speaker, session_pk, said_at, text in self._store.turn_profiles(pks):
            yield pk, TurnRow(speaker, session_pk, said_at, addresses_listener(text), only_asks(text), asks(text))

    def _fetch_neighbors(self, pks: list[int]) -> Iterator[tuple[int, tuple[int, ...]]]:
        return ((pk, tuple(others)) for pk, others in self._store.turn_neighbors(pks).items())

    def _fetch_occurred(self, pks: list[int]) -> Iterator[tuple[int, tuple[tuple[str, str | None], ...]]]:
        return ((pk, tuple(spans)) for pk, spans in self._store.turn_occurred(pks).items())


def memoized(
    cache: dict[int, _Value],
    keys: Iterable[int],
    fetch: Callable[[list[int]], Iterable[tuple[int, _Value]]],
    default: _Value | None = None,
) -> dict[int, _Value]:
    """``cache``'s values for ``keys`` (in their order, once each), fetching the missing ones in one call; with
    ``default``, keys the fetch did not return are kept as it (so they are not asked again)."""
    wanted = list(dict.fromkeys(keys))
    missing = [k for k in wanted if k not in cache]
    if missing:
        cache.update(fetch(missing))
        if default is not None:
            for k in missing:
                cache.setdefault(k, default)
    return {k: cache[k] for k in wanted if k in cache}
