"""What query analysis (retrieve/query.py) and the fusion's turn lookup (retrieve/turn_lookup.py) ask of the
store, in portable SQL: entities by name key or by one word of their name, and the candidate turns' rows,
neighbours and occurred times. Mixed into ``SQLiteStore`` and ``PostgresStore``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sodamem.store import turn_reads
from sodamem.store.connection import Connection
from sodamem.store.facts import entity_pks_by_key
from sodamem.store.rows import TurnProfile


class PortableQueryReads:
    conn: Connection

    def entity_pks_by_key(self, user: str, keys: Iterable[str]) -> dict[str, int]:
        """The entity each name key (``entity_key``) belongs to, for the keys that have one."""
        return entity_pks_by_key(self.conn, user, keys)

    def turn_profiles(self, turn_pks: Sequence[int]) -> list[TurnProfile]:
        """Who said each turn, in which session, when, and what."""
        return [TurnProfile(*row) for row in turn_reads.turn_rows(self.conn, turn_pks)]

    def piece_turns(self, piece_pks: Sequence[int]) -> dict[int, int]:
        """The turn each piece belongs to."""
        return dict(turn_reads.piece_turns(self.conn, piece_pks))

    def turn_neighbors(self, turn_pks: Sequence[int]) -> dict[int, list[int]]:
        """The adjacent turns of the same session, for the turns that have any."""
        return turn_reads.turn_neighbors(self.conn, turn_pks)

    def turn_occurred(self, turn_pks: Sequence[int]) -> dict[int, list[tuple[str, str | None]]]:
        """The occurred intervals ``(start, end)`` of the facts derived from each turn, for the turns with any."""
        return turn_reads.turn_occurred(self.conn, turn_pks)

    def latest_turn(self) -> int:
        """The highest turn id (0 for none): a turn added later gets a higher one."""
        return turn_reads.latest_turn(self.conn)

    def turns_after(self, last: int) -> dict[int, int]:
        """``turn id -> session id`` of the turns with an id above ``last``."""
        return turn_reads.turns_after(self.conn, last)
