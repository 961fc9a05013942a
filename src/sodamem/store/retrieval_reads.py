"""What the fused ranking (retrieve/fused.py), the evidence builder (retrieve/evidence.py) and the offline reader
(answer/offline.py) ask of the store besides the graph, in portable SQL. Mixed into ``SQLiteStore`` and
``PostgresStore``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sodamem.ingest.entities import entity_key
from sodamem.store import fact_queries
from sodamem.store.connection import Connection
from sodamem.store.facts import entity_pks_by_key
from sodamem.store.in_lists import chunked, marks
from sodamem.store.rows import TurnFact, TurnText


class PortableRetrievalReads:
    conn: Connection

    def speaker_entities(self, user: str, speakers: Iterable[str]) -> dict[str, int]:
        """The entity each speaker is known as, for the speakers whose name is one of an entity's names ("user"
        once the user said "I'm Maya"). Speakers whose names share a key (``entity_key``) count once."""
        keys = {entity_key(s): s for s in speakers}
        keys.pop("", None)
        if not keys:
            return {}
        return {keys[key]: pk for key, pk in entity_pks_by_key(self.conn, user, keys).items()}

    def source_turns(self, user: str, fact_pks: Sequence[int]) -> dict[int, int]:
        """The turn each fact is drawn from (through its sources; a fact's sources lie in one turn, the first
        one found is kept), for the user's facts that have any."""
        turn_of: dict[int, int] = {}
        for chunk in chunked(list(fact_pks)):
            rows = self.conn.execute(
                "SELECT fs.fact_pk, p.turn_pk FROM fact_sources fs JOIN pieces p ON p.id = fs.piece_pk"
                f" AND p.user = ? WHERE fs.fact_pk IN ({marks(chunk)})",
                (user, *chunk),
            )
            for fact_pk, turn_pk in rows:
                turn_of.setdefault(int(fact_pk), int(turn_pk))
        return turn_of

    def turn_texts(self, user: str, turn_pks: Sequence[int]) -> dict[int, TurnText]:
        """What each of the user's turns among ``turn_pks`` says, and who said it."""
        texts: dict[int, TurnText] = {}
        for chunk in chunked(list(turn_pks)):
            rows = self.conn.execute(
                f"SELECT id, text, caption, speaker FROM turns WHERE user = ? AND id IN ({marks(chunk)})",
                (user, *chunk),
            )
            texts.update({int(pk): TurnText(str(text), caption, str(speaker)) for pk, text, caption, speaker in rows})
        return texts

    def turns_said_by(self, user: str, speakers: Sequence[str], latest: int | None = None) -> list[int]:
        """Every turn of the user said by one of ``speakers`` (only the ``latest`` of them when given), in id order
        (the entity tunnel's scope)."""
        if not speakers or (latest is not None and latest < 1):
            return []
        sql = f"SELECT id FROM turns WHERE user = ? AND speaker IN ({marks(speakers)})"
        if latest is None:
            rows = self.conn.execute(sql + " ORDER BY id", (user, *speakers))
            return [int(pk) for (pk,) in rows]
        rows = self.conn.execute(sql + " ORDER BY id DESC LIMIT ?", (user, *speakers, latest))
        return sorted(int(pk) for (pk,) in rows)

    def session_timestamp(self, user: str, session_id: str) -> str | None:
        """When the user's session began, or None when there is no such session."""
        return fact_queries.session_timestamp(self.conn, user, session_id)

    def facts_of_turn(self, user: str, session_id: str, turn_index: int) -> list[TurnFact]:
        """The facts (not invalid) drawn from a turn, by id."""
        return fact_queries.facts_of_turn(self.conn, user, session_id, turn_index)
