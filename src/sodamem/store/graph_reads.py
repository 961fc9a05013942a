"""What the graph tunnel (retrieve/graph.py) asks of the fact graph, in portable SQL: entities, the facts that mention
them, fact-to-fact links and the turns facts are derived from. Every statement is scoped by user and takes its ids
a chunk at a time. Mixed into ``SQLiteStore`` and ``PostgresStore``."""

from __future__ import annotations

from collections.abc import Sequence

from sodamem.model import LinkType
from sodamem.store.connection import Connection
from sodamem.store.in_lists import chunked, marks
from sodamem.store.rows import FactTurn, LinkedFact, Mention, MentioningFact

_SLOT_TYPES = (LinkType.SUPERSEDES.value, LinkType.CONTRADICTS.value, LinkType.UPDATES.value)
_STEP_TYPES = (LinkType.NEIGHBOR.value, *_SLOT_TYPES)
NO_LIMIT = 1 << 62  # LIMIT -1 is SQLite's "no limit" only


class PortableGraphReads:
    conn: Connection

    def entity_names(self, user: str, entity_pks: Sequence[int]) -> dict[int, str]:
        """The name of each of the user's entities among ``entity_pks``."""
        names: dict[int, str] = {}
        for chunk in chunked(list(dict.fromkeys(entity_pks))):
            rows = self.conn.execute(
                f"SELECT id, name FROM entities WHERE user = ? AND id IN ({marks(chunk)})", (user, *chunk)
            )
            names.update({int(pk): str(name) for pk, name in rows})
        return names

    def fact_statuses(self, user: str, fact_pks: Sequence[int], statuses: Sequence[str]) -> dict[int, str]:
        """The status of each of the user's facts among ``fact_pks`` whose status is one of ``statuses``."""
        found: dict[int, str] = {}
        for chunk in chunked(list(dict.fromkeys(fact_pks))):
            rows = self.conn.execute(
                f"SELECT id, status FROM facts WHERE user = ? AND id IN ({marks(chunk)})"
                f" AND status IN ({marks(statuses)})",
                (user, *chunk, *statuses),
            )
            found.update({int(pk): str(status) for pk, status in rows})
        return found

    def mention_counts(
        self, user: str, entity_pks: Sequence[int], statuses: Sequence[str], cap: int = -1
    ) -> dict[int, int]:
        """How many facts with one of ``statuses`` MENTION each entity, counting no further than ``cap`` (-1: no
        cap); entities no such fact mentions are absent."""
        found: dict[int, int] = {}
        for chunk in chunked(sorted(set(entity_pks))):
            rows = self.conn.execute(
                f"WITH ids (id) AS (VALUES {','.join(['(?)'] * len(chunk))}) SELECT ids.id, (SELECT COUNT(*) FROM"
                " (SELECT DISTINCT l.src_id FROM links l JOIN facts f ON f.id = l.src_id AND f.user = l.user"
                " WHERE l.user = ? AND l.dst_kind = 'entity' AND l.dst_id = ids.id AND l.type = ?"
                " AND +l.src_kind = 'fact'"
                f" AND f.status IN ({marks(statuses)}) LIMIT ?)) FROM ids",
                (*chunk, user, LinkType.MENTIONS.value, *statuses, cap if cap >= 0 else NO_LIMIT),
            )
            found.update({int(entity): int(count) for entity, count in rows if count})
        return found

    def facts_mentioning(
        self, user: str, entity_pks: Sequence[int], statuses: Sequence[str], per_entity: int
    ) -> dict[int, list[MentioningFact]]:
        """Per entity (in id order), the facts with one of ``statuses`` that MENTION it, at most ``per_entity``:
        active first, then the most recently mentioned (then the highest id)."""
        grouped: dict[int, list[MentioningFact]] = {}
        for chunk in chunked(sorted(set(entity_pks))):
            rows = self.conn.execute(
                "SELECT entity, fact, status FROM ("
                " SELECT m.entity, m.fact, f.status,"
                "  ROW_NUMBER() OVER (PARTITION BY m.entity"
                "   ORDER BY f.status = 'active' DESC, f.mentioned_at DESC, f.id DESC) AS position"
                " FROM (SELECT DISTINCT dst_id AS entity, src_id AS fact FROM links WHERE user = ? AND type = ?"
                f"  AND dst_kind = 'entity' AND src_kind = 'fact' AND dst_id IN ({marks(chunk)})) AS m"
                f" JOIN facts f ON f.id = m.fact AND f.user = ? AND f.status IN ({marks(statuses)})"
                ") WHERE position <= ? ORDER BY entity, position",
                (user, LinkType.MENTIONS.value, *chunk, user, *statuses, per_entity),
            )
            for entity, fact, status in rows:
                grouped.setdefault(int(entity), []).append(MentioningFact(int(fact), str(status)))
        return grouped

    def entities_mentioned(self, user: str, fact_pks: Sequence[int]) -> list[Mention]:
        """Every entity the facts MENTION, as ``(fact, entity)``."""
        found: list[Mention] = []
        for chunk in chunked(fact_pks):
            rows = self.conn.execute(
                "SELECT DISTINCT src_id, dst_id FROM links WHERE user = ? AND type = ? AND src_kind = 'fact'"
                f" AND dst_kind = 'entity' AND src_id IN ({marks(chunk)})",
                (user, LinkType.MENTIONS.value, *chunk),
            )
            found += [Mention(int(a), int(b)) for a, b in rows]
        return found

    def fact_links_from(self, user: str, fact_pks: Sequence[int], statuses: Sequence[str]) -> list[LinkedFact]:
        """The steps from the facts over NEIGHBOR and slot links (SUPERSEDES, CONTRADICTS, UPDATES), both ways, to
        facts with one of ``statuses``; sorted."""
        found: list[LinkedFact] = []
        for chunk in chunked(fact_pks):
            for near, far in (("src_id", "dst_id"), ("dst_id", "src_id")):
                rows = self.conn.execute(
                    f"SELECT DISTINCT l.{near}, l.{far}, l.type, f.status FROM links l"
                    f" JOIN facts f ON f.id = l.{far} AND f.user = l.user"
                    " WHERE l.user = ? AND l.src_kind = 'fact' AND l.dst_kind = 'fact'"
                    f" AND l.type IN ({marks(_STEP_TYPES)})"
                    f" AND l.{near} IN ({marks(chunk)}) AND f.status IN ({marks(statuses)})",
                    (user, *_STEP_TYPES, *chunk, *statuses),
                )
                found += [LinkedFact(int(a), int(b), str(t), str(s)) for a, b, t, s in rows]
        return sorted(found)

    def derived_turns(self, user: str, fact_pks: Sequence[int]) -> list[FactTurn]:
        """Each ``(fact, turn)`` such that the fact is DERIVED_FROM a piece of the turn."""
        found: list[FactTurn] = []
        for chunk in chunked(list(fact_pks)):
            rows = self.conn.execute(
                "SELECT DISTINCT l.src_id, p.turn_pk FROM links l JOIN pieces p ON p.id = l.dst_id AND p.user = l.user"
                " WHERE l.user = ? AND l.type = ? AND l.src_kind = 'fact' AND l.dst_kind = 'piece'"
                f" AND l.src_id IN ({marks(chunk)})",
                (user, LinkType.DERIVED_FROM.value, *chunk),
            )
            found += [FactTurn(int(fact_pk), int(turn_pk)) for fact_pk, turn_pk in rows]
        return found
