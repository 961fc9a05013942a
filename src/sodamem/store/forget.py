"""SQL of forgetting: what a selector covers, and deleting it with everything derived from it.

A forgotten turn takes its pieces, FTS rows and the vectors of its texts (unless another row still has the same
text); a fact all of whose sources are forgotten goes, one with other sources keeps those; the slots of deleted
facts are recomputed (a fact superseded only by a forgotten one is active again); entities that only the deleted
facts named go. ``secure_delete`` zeroes freed pages, the FTS indexes are rewritten without the deleted terms and
the WAL is checkpointed and truncated, so the text survives in no byte of the files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sodamem import instants
from sodamem.ingest.entities import value_key
from sodamem.store.connection import Connection
from sodamem.store.facts import resolve_slots
from sodamem.store.hashes import text_hash
from sodamem.store.in_lists import chunked


@dataclass(frozen=True, slots=True)
class Selector:
    """Exactly one of: a session, a turn (``turn_id``, narrowed by ``session_id``), a fact, everything said
    before a time, or everything of the user."""

    session_id: str | None = None
    turn_id: str | None = None
    fact_id: int | None = None
    before: datetime | None = None
    everything: bool = False

    def named(self) -> list[str]:
        """The selectors given: exactly one makes a forget (a session narrowing a turn belongs to the turn)."""
        given = [("turn", self.turn_id), ("fact", self.fact_id), ("before", self.before)]
        names = [name for name, value in given if value is not None]
        if self.session_id is not None and self.turn_id is None:
            names.append("session")
        return [*names, "everything"] if self.everything else names

    def describe(self) -> dict[str, object]:
        """The selector as the audit log keeps it: ids and times, no text."""
        out: dict[str, object] = {}
        if self.session_id is not None:
            out["session"] = self.session_id
        if self.turn_id is not None:
            out["turn"] = self.turn_id
        if self.fact_id is not None:
            out["fact"] = self.fact_id
        if self.before is not None:
            out["before"] = self.before.isoformat()
        if self.everything:
            out["everything"] = True
        return out


@dataclass(slots=True)
class ForgetPlan:
    """Row ids a forget covers (store-internal) and the public ids to report."""

    turn_pks: list[int] = field(default_factory=list)
    session_pks: list[int] = field(default_factory=list)  # sessions left without turns
    fact_pks: list[int] = field(default_factory=list)  # facts deleted whole
    trimmed_fact_pks: list[int] = field(default_factory=list)  # facts that keep other sources
    turn_refs: list[str] = field(default_factory=list)  # "<session_id>/<turn_id>"
    session_ids: list[str] = field(default_factory=list)
    everything: bool = False  # every entity of the user goes too, alias-only ones included
    fact_named: int | None = None  # the fact the selector names (its turns stay)


def plan_forget(conn: Connection, user: str, selector: Selector) -> ForgetPlan:
    plan = ForgetPlan(everything=selector.everything)
    turns = _selected_turns(conn, user, selector)
    plan.turn_pks = sorted({pk for pk, _, _ in turns})
    plan.turn_refs = [f"{session_id}/{turn_id}" for _, session_id, turn_id in sorted(turns)]
    facts_of_turns = _facts_of_turns(conn, plan.turn_pks)
    if selector.fact_id is not None:
        row = conn.execute("SELECT id FROM facts WHERE user = ? AND id = ?", (user, selector.fact_id)).fetchone()
        plan.fact_pks = [int(row[0])] if row is not None else []
        plan.fact_named = plan.fact_pks[0] if plan.fact_pks else None
    for fact_pk, sources_left in sorted(facts_of_turns.items()):
        (plan.trimmed_fact_pks if sources_left else plan.fact_pks).append(fact_pk)
    touched_sessions = _sessions_of_turns(conn, plan.turn_pks)
    for session_pk, session_id, remaining in touched_sessions:
        if remaining == 0:
            plan.session_pks.append(session_pk)
            plan.session_ids.append(session_id)
    return plan


def apply_forget(conn: Connection, user: str, plan: ForgetPlan) -> dict[str, int]:
    """Delete what ``plan`` covers (inside the caller's transaction); return counts of what went."""
    hashes = _embed_hashes(conn, plan)
    slots = _slots_of(conn, plan.fact_pks)
    entities = _entities_of(conn, plan.fact_pks)
    counts = {"pieces": _count(conn, "SELECT COUNT(*) FROM pieces WHERE turn_pk IN ({})", plan.turn_pks)}
    if plan.fact_named is not None:  # its turns stay: making their facts again must not bring it back
        _remember_forgotten(conn, user, plan.fact_named)
    for part in chunked(plan.fact_pks):
        conn.execute(f"DELETE FROM facts WHERE id IN ({','.join('?' * len(part))})", part)
    piece_pks = [int(r[0]) for part in chunked(plan.turn_pks) for r in conn.execute(
        f"SELECT id FROM pieces WHERE turn_pk IN ({','.join('?' * len(part))})", part
    )]  # fmt: skip
    for part in chunked(plan.turn_pks):
        marks = ",".join("?" * len(part))
        conn.execute(  # the session's later turns never take a forgotten turn's index
            "UPDATE sessions SET next_index = max(next_index, (SELECT max(idx) + 1 FROM turns t WHERE"
            f" t.session_pk = sessions.id AND t.id IN ({marks}))) WHERE id IN (SELECT session_pk FROM turns"
            f" WHERE id IN ({marks}))",
            (*part, *part),
        )
        conn.execute(f"DELETE FROM turns WHERE id IN ({marks})", part)
    for part in chunked(plan.session_pks):
        conn.execute(f"DELETE FROM sessions WHERE id IN ({','.join('?' * len(part))})", part)
    for part in chunked(piece_pks):  # links of kept facts to forgotten pieces
        conn.execute(
            f"DELETE FROM links WHERE user = ? AND dst_kind = 'piece' AND dst_id IN ({','.join('?' * len(part))})",
            (user, *part),
        )
    resolve_slots(conn, user, slots)
    if plan.everything:
        entities |= {int(r[0]) for r in conn.execute("SELECT id FROM entities WHERE user = ?", (user,))}
    counts["entities"] = _delete_unnamed_entities(conn, user, entities)
    counts["embeddings"] = _delete_unused_vectors(conn, hashes)
    counts.update(
        sessions=len(plan.session_pks), turns=len(plan.turn_pks), facts=len(plan.fact_pks),
        facts_trimmed=len(plan.trimmed_fact_pks),
    )  # fmt: skip
    return counts


def preview_forget(conn: Connection, user: str, plan: ForgetPlan) -> dict[str, int]:
    """The counts ``apply_forget`` would return, changing nothing: the plan is applied inside a savepoint that is
    then rolled back, so the counts only the deletion itself finds (entities no kept fact names, vectors no kept
    text uses) are exact, not estimated."""
    conn.execute("SAVEPOINT forget_preview")
    try:
        return apply_forget(conn, user, plan)
    finally:
        conn.execute("ROLLBACK TO SAVEPOINT forget_preview")
        conn.execute("RELEASE SAVEPOINT forget_preview")


_OWNER = re.compile(r"^[^\s']+'s\s+")  # "maya's " of a value key


def forgotten_key(predicate: str, value: str | None, char_start: int, char_end: int) -> str:
    """What names a forgotten fact within a piece it was read from: a hash of its predicate, its value and the span
    of its source. The value's owner is left out ("user's mom's apple pie" is "Maya's ..." once the speaker is
    named), as is the subject (renamed the same way); the span tells "I like tea" from "Anna likes tea" in one
    sentence, and the value "likes tea" from "likes coffee" in one span."""
    owned = _OWNER.sub("", value_key(value), count=1)
    return text_hash(f"{predicate}\x00{owned}\x00{char_start}\x00{char_end}")


def _remember_forgotten(conn: Connection, user: str, fact_pk: int) -> None:
    row = conn.execute("SELECT predicate, object FROM facts WHERE user = ? AND id = ?", (user, fact_pk)).fetchone()
    if row is None:
        return
    sources = conn.execute("SELECT piece_pk, char_start, char_end FROM fact_sources WHERE fact_pk = ?", (fact_pk,))
    marks = {(int(s[0]), forgotten_key(str(row[0]), row[1], int(s[1]), int(s[2]))) for s in sources}
    conn.executemany(
        "INSERT OR IGNORE INTO forgotten_facts (user, piece_pk, fact_key) VALUES (?, ?, ?)",
        [(user, piece_pk, key) for piece_pk, key in sorted(marks)],
    )


# A mark as it outlives its piece: the piece's turn id, where the piece starts, its words, and the mark's key.
PieceMark = tuple[str, int, str, str]


def session_marks(conn: Connection, user: str, session_pk: int) -> list[PieceMark]:
    """The forgotten-fact marks of a session's pieces, named by what a replacing copy of the session can match."""
    rows = conn.execute(
        "SELECT t.turn_id, p.char_start, p.text, m.fact_key FROM forgotten_facts m JOIN pieces p ON p.id = m.piece_pk"
        " JOIN turns t ON t.id = p.turn_pk WHERE m.user = ? AND t.session_pk = ?",
        (user, session_pk),
    )
    return [(str(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]


def carry_marks(
    conn: Connection, user: str, marks: Sequence[PieceMark], pieces: dict[tuple[str, int, str], int]
) -> None:
    """Put ``marks`` on the pieces (``(turn id, char start, text) -> piece_pk``) that say the same words at the same
    place as the piece each was left on; a piece whose words changed is said anew and keeps no mark."""
    rows = sorted({(pieces[m[:3]], m[3]) for m in marks if m[:3] in pieces})
    conn.executemany(
        "INSERT OR IGNORE INTO forgotten_facts (user, piece_pk, fact_key) VALUES (?, ?, ?)",
        [(user, piece_pk, key) for piece_pk, key in rows],
    )


def forgotten_keys(conn: Connection, user: str, piece_pks: Sequence[int]) -> set[tuple[int, str]]:
    """``(piece_pk, forgotten_key)`` of the facts the user forgot that were read from these pieces."""
    found: set[tuple[int, str]] = set()
    for part in chunked(sorted(set(piece_pks))):
        rows = conn.execute(
            "SELECT piece_pk, fact_key FROM forgotten_facts WHERE user = ?"
            f" AND piece_pk IN ({','.join('?' * len(part))})",
            (user, *part),
        )
        found.update((int(r[0]), str(r[1])) for r in rows)
    return found


def log_forget(
    conn: Connection, user: str, selector: Selector, counts: dict[str, int], ids: dict[str, list[object]]
) -> None:
    conn.execute(
        "INSERT INTO forget_log (user, forgotten_at, selector, counts, ids) VALUES (?, ?, ?, ?, ?)",
        (user, datetime.now(UTC).isoformat(), json.dumps(selector.describe()), json.dumps(counts), json.dumps(ids)),
    )


LogRow = tuple[str, str, str, str, str]  # user, forgotten_at, selector, counts, ids (JSON as stored)


def forget_log_rows(conn: Connection) -> list[LogRow]:
    """Every user's forget records as stored, oldest first (``sodamem migrate`` moves them)."""
    rows = conn.execute("SELECT user, forgotten_at, selector, counts, ids FROM forget_log ORDER BY id")
    return [(str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4])) for r in rows]


def insert_forget_log_rows(conn: Connection, rows: Sequence[LogRow]) -> None:
    for row in rows:
        conn.execute("INSERT INTO forget_log (user, forgotten_at, selector, counts, ids) VALUES (?, ?, ?, ?, ?)", row)


def forget_log(conn: Connection, user: str) -> list[dict[str, object]]:
    rows = conn.execute(
        "SELECT forgotten_at, selector, counts, ids FROM forget_log WHERE user = ? ORDER BY id", (user,)
    )
    return [
        {"forgotten_at": r[0], "selector": json.loads(r[1]), "counts": json.loads(r[2]), "ids": json.loads(r[3])}
        for r in rows
    ]


# -- selection -----------------------------------------------------------------------------------------------------


def _selected_turns(conn: Connection, user: str, selector: Selector) -> list[tuple[int, str, str]]:
    base = "SELECT t.id, s.session_id, t.turn_id FROM turns t JOIN sessions s ON s.id = t.session_pk WHERE t.user = ?"
    rows: Iterable[Sequence[Any]]
    if selector.session_id is not None and selector.turn_id is None:
        # Through the session's own index: "t.user = ?" alone would walk every turn of the user.
        rows = conn.execute(
            base + " AND t.session_pk = (SELECT id FROM sessions WHERE user = ? AND session_id = ?)",
            (user, user, selector.session_id),
        )
    elif selector.turn_id is not None:
        params: tuple[object, ...] = (user, selector.turn_id)
        sql = base + " AND t.turn_id = ?"
        if selector.session_id is not None:
            sql += " AND s.session_id = ?"
            params += (selector.session_id,)
        rows = conn.execute(sql, params)
    elif selector.before is not None:  # narrowed by text, then compared as instants (sodamem/instants.py)
        near = instants.text_bound(selector.before, instants.TEXT_SLACK)
        found = conn.execute(
            "SELECT t.id, s.session_id, t.turn_id, t.timestamp FROM turns t JOIN sessions s ON s.id = t.session_pk"
            " WHERE t.user = ? AND t.timestamp < ?",
            (user, near),
        )
        rows = [r[:3] for r in found if instants.before(str(r[3]), selector.before)]
    elif selector.everything:
        rows = conn.execute(base, (user,))
    else:
        return []
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]


def _facts_of_turns(conn: Connection, turn_pks: Sequence[int]) -> dict[int, int]:
    """Facts with a source in the turns -> how many of their sources lie outside them."""
    out: dict[int, int] = {}
    for part in chunked(list(turn_pks)):
        marks = ",".join("?" * len(part))
        rows = conn.execute(
            f"SELECT fs.fact_pk, SUM(CASE WHEN p.turn_pk IN ({marks}) THEN 0 ELSE 1 END) FROM fact_sources fs"
            " JOIN pieces p ON p.id = fs.piece_pk WHERE fs.fact_pk IN (SELECT fs2.fact_pk FROM fact_sources fs2"
            f" JOIN pieces p2 ON p2.id = fs2.piece_pk WHERE p2.turn_pk IN ({marks})) GROUP BY fs.fact_pk",
            (*part, *part),
        )
        for fact_pk, outside in rows:
            out[int(fact_pk)] = min(out.get(int(fact_pk), 1 << 30), int(outside))
    return out


def _sessions_of_turns(conn: Connection, turn_pks: Sequence[int]) -> list[tuple[int, str, int]]:
    """Sessions holding the turns, with how many of their turns are not among them."""
    sessions: dict[int, int] = {}
    for part in chunked(list(turn_pks)):
        for session_pk, n in conn.execute(
            f"SELECT session_pk, COUNT(*) FROM turns WHERE id IN ({','.join('?' * len(part))}) GROUP BY session_pk",
            part,
        ):
            sessions[int(session_pk)] = sessions.get(int(session_pk), 0) + int(n)
    out = []
    for session_pk, forgotten in sorted(sessions.items()):
        session_id, total = conn.execute(
            "SELECT s.session_id, (SELECT COUNT(*) FROM turns WHERE session_pk = s.id) FROM sessions s WHERE s.id = ?",
            (session_pk,),
        ).fetchone()
        out.append((session_pk, str(session_id), int(total) - forgotten))
    return out


# -- cascade -------------------------------------------------------------------------------------------------------


def _embed_hashes(conn: Connection, plan: ForgetPlan) -> set[str]:
    hashes: set[str] = set()
    for part in chunked(plan.turn_pks):
        marks = ",".join("?" * len(part))
        hashes.update(str(r[0]) for r in conn.execute(f"SELECT embed_hash FROM turns WHERE id IN ({marks})", part))
        hashes.update(
            str(r[0]) for r in conn.execute(f"SELECT embed_hash FROM pieces WHERE turn_pk IN ({marks})", part)
        )
    for part in chunked(plan.fact_pks):
        marks = ",".join("?" * len(part))
        hashes.update(str(r[0]) for r in conn.execute(f"SELECT embed_hash FROM facts WHERE id IN ({marks})", part))
    hashes.discard("None")
    return hashes


def _slots_of(conn: Connection, fact_pks: Sequence[int]) -> set[str]:
    slots: set[str] = set()
    for part in chunked(list(fact_pks)):
        rows = conn.execute(
            f"SELECT DISTINCT slot FROM facts WHERE slot IS NOT NULL AND id IN ({','.join('?' * len(part))})", part
        )
        slots.update(str(r[0]) for r in rows)
    return slots


def _entities_of(conn: Connection, fact_pks: Sequence[int]) -> set[int]:
    entities: set[int] = set()
    for part in chunked(list(fact_pks)):
        marks = ",".join("?" * len(part))
        entities.update(int(r[0]) for r in conn.execute(f"SELECT subject_pk FROM facts WHERE id IN ({marks})", part))
        entities.update(
            int(r[0]) for r in conn.execute(f"SELECT entity_pk FROM fact_roles WHERE fact_pk IN ({marks})", part)
        )
    return entities


def _delete_unnamed_entities(conn: Connection, user: str, candidates: set[int]) -> int:
    """Entities the deleted facts named that no remaining fact names (their aliases and links go with them)."""
    gone = 0
    for entity in sorted(candidates):
        named = conn.execute(
            "SELECT 1 FROM facts WHERE subject_pk = ? UNION ALL SELECT 1 FROM fact_roles WHERE entity_pk = ? LIMIT 1",
            (entity, entity),
        ).fetchone()
        if named is None:
            conn.execute(
                "DELETE FROM links WHERE user = ? AND ((src_kind = 'entity' AND src_id = ?)"
                " OR (dst_kind = 'entity' AND dst_id = ?))",
                (user, entity, entity),
            )
            gone += conn.execute("DELETE FROM entities WHERE id = ?", (entity,)).rowcount
    return gone


def _delete_unused_vectors(conn: Connection, hashes: set[str]) -> int:
    """Cached vectors of the forgotten texts that no remaining row (of any user) still has."""
    if not hashes:
        return 0
    wanted = sorted(hashes)
    used: set[str] = set()
    for table in ("turns", "pieces", "facts", "entities"):
        for part in chunked(wanted):
            marks = ",".join("?" * len(part))
            rows = conn.execute(
                f"SELECT DISTINCT embed_hash FROM {table} WHERE substr(embed_hash, 1, 16) IN ({marks})"
                f" AND embed_hash IN ({marks})",  # the first finds the rows through the index, the second is exact
                [h[:16] for h in part] + part,
            )
            used.update(str(r[0]) for r in rows)
    gone = 0
    for part in chunked([h for h in wanted if h not in used]):
        gone += conn.execute(f"DELETE FROM embeddings WHERE text_hash IN ({','.join('?' * len(part))})", part).rowcount
    return gone


def _count(conn: Connection, sql: str, keys: Sequence[int]) -> int:
    return sum(int(conn.execute(sql.format(",".join("?" * len(p))), p).fetchone()[0]) for p in chunked(list(keys)))
