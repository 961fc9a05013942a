"""``sodamem check``: is the database sound? SQLite's own checks, the FTS indexes, and SodaMem's invariants.

Each check is a small function over the connection that returns the problems it found (none when all is well).
Checks read every user's rows; none writes anything (FTS5's integrity-check is issued as an INSERT but changes
nothing).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sodamem.embed.resolve import SETTING_KEY
from sodamem.store import facts, fts
from sodamem.store.connection import Connection

# Problems named per check before the rest are only counted (a broken table would otherwise print every row).
MAX_EXAMPLES = 5

FTS_TABLES = ("turns", "pieces", "facts", "entities")
SLOT_LINK_TYPES = ("SUPERSEDES", "CONTRADICTS", "UPDATES")
_NODE_TABLES = {"fact": "facts", "piece": "pieces", "entity": "entities"}


class ProblemKind(StrEnum):
    SQLITE_INTEGRITY = "sqlite_integrity"
    FOREIGN_KEY = "foreign_key"
    FTS_INDEX = "fts_index"
    PIECE_SPAN = "piece_span"
    FACT_WITHOUT_SOURCE = "fact_without_source"
    SOURCE_QUOTE = "source_quote"
    TURN_ORDER = "turn_order"
    DANGLING_LINK = "dangling_link"
    MISSING_VECTORS = "missing_vectors"
    EMBEDDER_SETTING = "embedder_setting"
    SLOT_STATUS = "slot_status"
    SLOT_RULES = "slot_rules"


@dataclass(frozen=True, slots=True)
class Problem:
    kind: ProblemKind
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind.value, "message": self.message}


@dataclass(frozen=True, slots=True)
class CheckReport:
    """What ``check_database`` found; ``ok`` when nothing."""

    problems: tuple[Problem, ...] = ()
    checks: tuple[str, ...] = field(default_factory=tuple)  # the names of the checks that ran, in order

    @property
    def ok(self) -> bool:
        return not self.problems

    def kinds(self) -> set[ProblemKind]:
        return {p.kind for p in self.problems}

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": list(self.checks), "problems": [p.to_dict() for p in self.problems]}


Check = Callable[[sqlite3.Connection], list[Problem]]


def check_database(conn: sqlite3.Connection) -> CheckReport:
    """Run every check over every user's rows."""
    checks: list[tuple[str, Check]] = [
        ("sqlite_integrity", check_sqlite_integrity),
        ("foreign_keys", check_foreign_keys),
        *((f"{table}_fts", _fts_check(table)) for table in FTS_TABLES),
        ("piece_spans", check_piece_spans),
        ("fact_sources", check_fact_sources),
        ("source_quotes", check_source_quotes),
        ("turn_order", check_turn_order),
        ("links", check_links),
        ("slots", check_slots),
        ("slot_rules", check_slot_rules),
        ("vectors", check_vectors),
    ]
    problems: list[Problem] = []
    for _name, run in checks:
        problems.extend(run(conn))
    return CheckReport(tuple(problems), tuple(name for name, _ in checks))


PORTABLE_CHECKS: tuple[tuple[str, Callable[[Connection], list[Problem]]], ...] = (
    ("piece_spans", lambda conn: check_piece_spans(conn)),
    ("fact_sources", lambda conn: check_fact_sources(conn)),
    ("source_quotes", lambda conn: check_source_quotes(conn)),
    ("turn_order", lambda conn: check_turn_order(conn)),
    ("links", lambda conn: check_links(conn)),
    ("slots", lambda conn: check_slots(conn)),
    ("slot_rules", lambda conn: check_slot_rules(conn)),
    ("vectors", lambda conn: check_vectors(conn)),
)


def check_rows(conn: Connection, engine_checks: Sequence[tuple[str, list[Problem]]] = ()) -> CheckReport:
    """The checks of the stored rows both stores run (portable SQL), after the engine's own (already run)."""
    problems = [p for _, found in engine_checks for p in found]
    for _name, run in PORTABLE_CHECKS:
        problems.extend(run(conn))
    names = (*(name for name, _ in engine_checks), *(name for name, _ in PORTABLE_CHECKS))
    return CheckReport(tuple(problems), names)


# -- SQLite's own checks ---------------------------------------------------------------------------------------


def check_sqlite_integrity(conn: sqlite3.Connection) -> list[Problem]:
    """``PRAGMA integrity_check``: b-trees, indexes, NOT NULL and CHECK constraints."""
    try:
        rows = [str(r[0]) for r in conn.execute(f"PRAGMA integrity_check({MAX_EXAMPLES + 1})")]
    except sqlite3.DatabaseError as exc:
        return [Problem(ProblemKind.SQLITE_INTEGRITY, f"PRAGMA integrity_check failed: {exc}")]
    if rows == ["ok"]:
        return []
    return [Problem(ProblemKind.SQLITE_INTEGRITY, f"SQLite integrity_check: {line}") for line in rows]


def check_foreign_keys(conn: sqlite3.Connection) -> list[Problem]:
    """``PRAGMA foreign_key_check``: rows that point at a parent row that does not exist."""
    counts: dict[tuple[str, str], int] = {}
    for row in conn.execute("PRAGMA foreign_key_check"):
        key = (str(row[0]), str(row[2]))
        counts[key] = counts.get(key, 0) + 1
    return [
        Problem(ProblemKind.FOREIGN_KEY, f"{n} row(s) of {table} point at missing rows of {parent}")
        for (table, parent), n in sorted(counts.items())
    ]


def _fts_check(table: str) -> Check:
    def check(conn: sqlite3.Connection) -> list[Problem]:
        return check_fts(conn, table)

    return check


def check_fts(conn: sqlite3.Connection, table: str) -> list[Problem]:
    """FTS5's integrity-check of every user's index of ``table``; rank 1 also compares the index with the user's
    rows. The ``turns`` check also finds logged changes no index received and users with rows but no index."""
    problems = []
    for user, indexed, index in fts.index_names(conn):
        if indexed != table:
            continue
        try:
            conn.execute(f"INSERT INTO {index} ({index}, rank) VALUES ('integrity-check', 1)")
        except sqlite3.DatabaseError as exc:
            problems.append(
                Problem(
                    ProblemKind.FTS_INDEX,
                    f"full-text index {table}_fts of user {user!r} does not match its rows (SQLite: {exc}); "
                    "rebuild it with: sodamem check --repair",
                )
            )
    if table == "turns":
        pending = fts.pending_count(conn)
        if pending:
            problems.append(
                Problem(ProblemKind.FTS_INDEX, f"full-text index log holds {pending} change(s) never applied")
            )
        missing = sorted(fts.users_with_rows(conn) - set(fts.user_numbers(conn)))
        if missing:
            problems.append(
                Problem(
                    ProblemKind.FTS_INDEX,
                    f"users with rows but no full-text index: {missing}; index them with: sodamem check --repair",
                )
            )
    return problems


# -- SodaMem's invariants ----------------------------------------------------------------------------------------


def check_piece_spans(conn: Connection) -> list[Problem]:
    """Every piece's text is its turn's text at the piece's offsets."""
    rows = conn.execute(
        "SELECT p.id, t.turn_id, p.idx, p.char_start, p.char_end FROM pieces p JOIN turns t ON t.id = p.turn_pk"
        " WHERE p.char_end > length(t.text) OR substr(t.text, p.char_start + 1, p.char_end - p.char_start) != p.text"
        " ORDER BY p.id"
    ).fetchall()
    return _summarise(
        ProblemKind.PIECE_SPAN,
        [f"piece {r[0]} (turn {r[1]} #{r[2]}) is not its turn's text at chars {r[3]}-{r[4]}" for r in rows],
        "piece(s) differ from their turn's text",
    )


def check_fact_sources(conn: Connection) -> list[Problem]:
    """Every fact has at least one literal source."""
    rows = conn.execute(
        "SELECT f.id FROM facts f WHERE NOT EXISTS (SELECT 1 FROM fact_sources s WHERE s.fact_pk = f.id) ORDER BY f.id"
    ).fetchall()
    return _summarise(
        ProblemKind.FACT_WITHOUT_SOURCE, [f"fact {r[0]} has no source" for r in rows], "fact(s) have no source"
    )


def check_source_quotes(conn: Connection) -> list[Problem]:
    """Every fact source quotes its piece: offsets are into the turn's text and lie within the piece."""
    rows = conn.execute(
        "SELECT s.fact_pk, s.piece_pk, s.char_start, s.char_end FROM fact_sources s"
        " JOIN pieces p ON p.id = s.piece_pk JOIN turns t ON t.id = p.turn_pk"
        " WHERE s.char_start < p.char_start OR s.char_end > p.char_end OR s.char_end <= s.char_start"
        " OR substr(t.text, s.char_start + 1, s.char_end - s.char_start) != s.quote"
        " ORDER BY s.fact_pk, s.piece_pk"
    ).fetchall()
    return _summarise(
        ProblemKind.SOURCE_QUOTE,
        [f"fact {r[0]}: the quote from piece {r[1]} is not the text at chars {r[2]}-{r[3]}" for r in rows],
        "fact source(s) do not quote their piece",
    )


def check_turn_order(conn: Connection) -> list[Problem]:
    """Every session holds turns (a session is whole or absent: forgetting its last turn removes it). Indexes are
    unique per session by the schema; a forgotten turn leaves a gap, so that the other turns' citations hold."""
    rows = conn.execute(
        "SELECT s.user, s.session_id FROM sessions s WHERE NOT EXISTS (SELECT 1 FROM turns t WHERE t.session_pk = s.id)"
        " ORDER BY s.id"
    ).fetchall()
    return _summarise(
        ProblemKind.TURN_ORDER,
        [f"session {r[1]!r} (user {r[0]!r}) has no turns" for r in rows],
        "session(s) without turns",
    )


def check_links(conn: Connection) -> list[Problem]:
    """Every link's ends exist (links hold no foreign keys); slot links (supersedes, contradicts, updates) join
    two facts."""
    found: list[str] = []
    for end in ("src", "dst"):
        for kind, table in _NODE_TABLES.items():
            rows = conn.execute(
                f"SELECT l.id, l.type, l.{end}_id FROM links l WHERE l.{end}_kind = ?"
                f" AND NOT EXISTS (SELECT 1 FROM {table} x WHERE x.id = l.{end}_id) ORDER BY l.id",
                (kind,),
            )
            found.extend(f"link {r[0]} ({r[1]}): its {end} {kind} {r[2]} does not exist" for r in rows)
    marks = ",".join("?" * len(SLOT_LINK_TYPES))
    rows = conn.execute(
        f"SELECT id, type, src_kind, dst_kind FROM links WHERE type IN ({marks})"
        " AND (src_kind != 'fact' OR dst_kind != 'fact') ORDER BY id",
        SLOT_LINK_TYPES,
    )
    found.extend(f"link {r[0]} ({r[1]}) joins a {r[2]} to a {r[3]}, not two facts" for r in rows)
    return _summarise(ProblemKind.DANGLING_LINK, found, "link(s) point at nothing")


def check_slots(conn: Connection) -> list[Problem]:
    """Each slot (a subject's residence, job, ...) holds at most one active fact that affirms a value: supersession
    leaves the newest active and the others superseded (only denials of other values stay active beside it), so
    two active ones are an edited dump or a broken write."""
    rows = conn.execute(
        "SELECT user, slot, COUNT(*) FROM facts WHERE slot IS NOT NULL AND status = 'active' AND polarity = 1"
        " AND modality != 'negated' GROUP BY user, slot HAVING COUNT(*) > 1 ORDER BY user, slot"
    )
    found = [f"user {r[0]!r}: slot {r[1]!r} holds {r[2]} active facts affirming a value" for r in rows]
    return _summarise(ProblemKind.SLOT_STATUS, found, "slot(s) affirm more than one active fact")


def check_slot_rules(conn: Connection) -> list[Problem]:
    """Every fact sits in the slot, and holds the status and end, that today's supersession rules give it (a store
    written by an older version may not: ``check --repair`` recomputes them)."""
    stale = facts.stale_supersession(conn)
    found = [
        f"user {user!r}: {n} fact(s) superseded under older rules (another slot, status or end than today's);"
        " check --repair recomputes them"
        for user, n in sorted(stale.items())
    ]
    return _summarise(ProblemKind.SLOT_RULES, found, "user(s) hold facts superseded under older rules: repair them")


def check_vectors(conn: Connection) -> list[Problem]:
    """When the database records an embedder, every turn and piece has a vector under its model
    (``Memory.embed_missing()`` adds what is missing). Raises ``MissingDependencyError`` when the recorded
    embedder's packages are not installed here (its model name, what vectors are stored under, is then unknown)."""
    from sodamem.embed import load_embedder

    row = conn.execute("SELECT value FROM settings WHERE key = ?", (SETTING_KEY,)).fetchone()
    if row is None:
        return []
    try:
        model = load_embedder(str(row[0])).name  # names the model; loads no weights
    except ValueError as exc:
        return [Problem(ProblemKind.EMBEDDER_SETTING, f"the database records an unknown embedder: {exc}")]
    problems = []
    for table in ("turns", "pieces"):
        missing = int(
            conn.execute(
                f"SELECT count(*) FROM {table} r WHERE r.embed_hash IS NULL OR NOT EXISTS"
                " (SELECT 1 FROM embeddings e WHERE e.model = ? AND e.text_hash = r.embed_hash)",
                (model,),
            ).fetchone()[0]
        )
        if missing:
            problems.append(
                Problem(
                    ProblemKind.MISSING_VECTORS,
                    f"{missing} {table} have no vector under the database's embedder ({model}); "
                    "Memory.embed_missing() adds them",
                )
            )
    return problems


def _summarise(kind: ProblemKind, found: list[str], what: str) -> list[Problem]:
    """The first few problems one by one, the rest as a count."""
    problems = [Problem(kind, message) for message in found[:MAX_EXAMPLES]]
    if len(found) > MAX_EXAMPLES:
        problems.append(Problem(kind, f"... {len(found) - MAX_EXAMPLES} more {what}"))
    return problems
