"""Full-text indexes per user: BM25 statistics (row counts, lengths, term rarity) of one user never depend on
another user's data, so a user's results and their order do not change when someone else adds or forgets.

Each user gets, per indexed table, an FTS5 index over a view of that user's rows (external content) and, for turns,
a vocabulary table. Rows reach them through a log: triggers on the tables append every insert, delete and change
of an indexed column to ``fts_pending`` (old values included, which an external-content delete needs), and
``drain`` applies the log inside the same transaction, before it commits (``SQLiteStore.transaction``), creating a
new user's indexes on first use. A write is indexed whole or not at all.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Sequence

TOKENIZER = "porter unicode61 remove_diacritics 2"
# Indexed tables and their columns, in the order the indexes hold them.
COLUMNS: dict[str, tuple[str, ...]] = {
    "turns": ("text", "caption"),
    "pieces": ("text",),
    "facts": ("text", "predicate"),
    "entities": ("name", "aliases"),
}

SCHEMA = """
CREATE TABLE fts_users (n INTEGER PRIMARY KEY, user TEXT NOT NULL UNIQUE);
CREATE TABLE fts_pending (
    seq INTEGER PRIMARY KEY,
    tbl TEXT NOT NULL,
    op TEXT NOT NULL CHECK (op IN ('insert', 'delete')),
    rid INTEGER NOT NULL,
    user TEXT NOT NULL,
    c1 TEXT,
    c2 TEXT
);
"""


def log_triggers() -> str:
    """Triggers that log every change an index must follow (updates: of the indexed columns only)."""
    sql = ""
    for table, columns in COLUMNS.items():
        new = ", ".join([f"new.{c}" for c in columns] + ["NULL"] * (2 - len(columns)))
        old = ", ".join([f"old.{c}" for c in columns] + ["NULL"] * (2 - len(columns)))
        log = "INSERT INTO fts_pending (tbl, op, rid, user, c1, c2) VALUES"
        sql += f"""
CREATE TRIGGER {table}_fts_log_insert AFTER INSERT ON {table} BEGIN
    {log} ('{table}', 'insert', new.id, new.user, {new});
END;
CREATE TRIGGER {table}_fts_log_delete AFTER DELETE ON {table} BEGIN
    {log} ('{table}', 'delete', old.id, old.user, {old});
END;
CREATE TRIGGER {table}_fts_log_update AFTER UPDATE OF {", ".join(columns)} ON {table} BEGIN
    {log} ('{table}', 'delete', old.id, old.user, {old});
    {log} ('{table}', 'insert', new.id, new.user, {new});
END;
"""
    return sql


def index_name(table: str, number: int) -> str:
    return f"{table}_fts_u{number}"


def terms_name(number: int) -> str:
    return f"turns_fts_terms_u{number}"


def user_number(conn: sqlite3.Connection, user: str) -> int | None:
    """The number naming the user's indexes, or None when the user has never had a row."""
    row = conn.execute("SELECT n FROM fts_users WHERE user = ?", (user,)).fetchone()
    return None if row is None else int(row[0])


def user_numbers(conn: sqlite3.Connection) -> dict[str, int]:
    return {str(user): int(n) for n, user in conn.execute("SELECT n, user FROM fts_users ORDER BY n")}


def create_user_indexes(conn: sqlite3.Connection, user: str, *, fill: bool) -> int:
    """Create the user's views and indexes; ``fill``: index the rows the user already has (migrations)."""
    number = conn.execute("INSERT INTO fts_users (user) VALUES (?)", (user,)).lastrowid
    assert number is not None
    literal = "CAST(X'" + user.encode("utf-8").hex() + "' AS TEXT)"  # a user name never becomes SQL
    # A number is reused when the highest one's fts_users row was lost: what it named is nobody's now.
    conn.execute(f"DROP TABLE IF EXISTS {terms_name(number)}")
    for table, columns in COLUMNS.items():
        view = f"{table}_of_u{number}"
        index = index_name(table, number)
        conn.execute(f"DROP TABLE IF EXISTS {index}")
        conn.execute(f"DROP VIEW IF EXISTS {view}")
        conn.execute(f"CREATE VIEW {view} AS SELECT id, {', '.join(columns)} FROM {table} WHERE user = {literal}")
        conn.execute(
            f"CREATE VIRTUAL TABLE {index} USING fts5({', '.join(columns)}, content='{view}', content_rowid='id',"
            f" tokenize='{TOKENIZER}')"
        )
        if fill:
            conn.execute(f"INSERT INTO {index} ({index}) VALUES ('rebuild')")
    conn.execute(f"CREATE VIRTUAL TABLE {terms_name(number)} USING fts5vocab({index_name('turns', number)}, 'row')")
    return number


def drain(conn: sqlite3.Connection) -> int:
    """Apply the logged changes to the users' indexes, in the order they were made; return how many."""
    rows = conn.execute("SELECT seq, tbl, op, rid, user, c1, c2 FROM fts_pending ORDER BY seq").fetchall()
    if not rows:
        return 0
    numbers = user_numbers(conn)
    run: list[tuple[object, ...]] = []
    key: tuple[str, str, str] | None = None
    for _, table, op, rid, user, c1, c2 in rows:
        if (table, op, user) != key:
            _apply(conn, key, run, numbers)
            key, run = (table, op, user), []
        run.append((rid, c1, c2)[: 1 + len(COLUMNS[table])])
    _apply(conn, key, run, numbers)
    conn.execute("DELETE FROM fts_pending")
    return len(rows)


def _apply(
    conn: sqlite3.Connection, key: tuple[str, str, str] | None, run: list[tuple[object, ...]], numbers: dict[str, int]
) -> None:
    if key is None or not run:
        return
    table, op, user = key
    if user not in numbers:
        numbers[user] = create_user_indexes(conn, user, fill=False)  # a new user: all its rows are in the log
    index = index_name(table, numbers[user])
    columns = COLUMNS[table]
    marks = ", ".join("?" * (1 + len(columns)))
    if op == "insert":
        conn.executemany(f"INSERT INTO {index} (rowid, {', '.join(columns)}) VALUES ({marks})", run)
    else:
        conn.executemany(f"INSERT INTO {index} ({index}, rowid, {', '.join(columns)}) VALUES ('delete', {marks})", run)


def optimize(conn: sqlite3.Connection, user: str) -> None:
    """Rewrite the user's indexes into one segment each: a deleted row's terms otherwise stay in older segments
    (and so in the file) until they merge."""
    number = user_number(conn, user)
    if number is None:
        return
    for table in COLUMNS:
        index = index_name(table, number)
        conn.execute(f"INSERT INTO {index} ({index}) VALUES ('optimize')")


def segment_counts(conn: sqlite3.Connection, user: str) -> dict[str, int]:
    """How many segments each of the user's indexes has (a query term is looked up in each); {} for no user."""
    number = user_number(conn, user)
    if number is None:
        return {}
    return {
        table: int(conn.execute(f"SELECT COUNT(DISTINCT segid) FROM {index_name(table, number)}_idx").fetchone()[0])
        for table in COLUMNS
    }


def rebuild(conn: sqlite3.Connection) -> None:
    """Re-index every user's rows from the tables (repairs an index that no longer matches its rows), and give a
    user with rows but no index (its ``fts_users`` row lost) a full one."""
    numbers = user_numbers(conn)
    _drop_orphans(conn, set(numbers.values()))  # the indexes of a lost number hold its user's words
    for user in sorted(users_with_rows(conn) - set(numbers)):
        create_user_indexes(conn, user, fill=False)  # filled by the rebuild below, with every other index
    drain(conn)
    for number in user_numbers(conn).values():
        for table in COLUMNS:
            index = index_name(table, number)
            conn.execute(f"INSERT INTO {index} ({index}) VALUES ('rebuild')")


_PER_USER = re.compile(rf"(?:(?:{'|'.join(COLUMNS)})_(?:fts|of)|turns_fts_terms)_u(\d+)")  # names made above


def _drop_orphans(conn: sqlite3.Connection, numbers: set[int]) -> None:
    """Drop the views and indexes of user numbers no ``fts_users`` row holds (an FTS5 table takes its shadows)."""
    objects = conn.execute("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
    orphans = [
        (str(kind), str(name))
        for kind, name in objects
        if (match := _PER_USER.fullmatch(str(name))) is not None and int(match.group(1)) not in numbers
    ]
    for kind, name in sorted(orphans, key=lambda o: "fts_terms" not in o[1]):  # a vocabulary before its index
        conn.execute(f"DROP {'VIEW' if kind == 'view' else 'TABLE'} IF EXISTS {name}")


def users_with_rows(conn: sqlite3.Connection) -> set[str]:
    """Users holding a row of an indexed table. NOT INDEXED: a damaged index must not make users seem to vanish."""
    return {str(r[0]) for t in COLUMNS for r in conn.execute(f"SELECT DISTINCT user FROM {t} NOT INDEXED")}


# -- queries ---------------------------------------------------------------------------------------------------


def ranked(
    conn: sqlite3.Connection,
    table: str,
    user: str,
    match: str,
    limit: int,
    extra: str = "",
    params: Sequence[object] = (),
) -> list[tuple[int, float]]:
    """``(rowid, bm25)`` of the user's rows of ``table`` matching, best (lowest bm25) first; ``extra`` filters on
    the table's row ``t``."""
    number = user_number(conn, user)
    if number is None:
        return []
    index = index_name(table, number)
    rows = conn.execute(
        f"SELECT f.rowid, bm25({index}) AS rank FROM {index} AS f JOIN {table} AS t ON t.id = f.rowid"
        f" WHERE {index} MATCH ?{extra} ORDER BY rank LIMIT ?",
        (match, *params, limit),
    ).fetchall()
    return [(int(r[0]), float(r[1])) for r in rows]


def term_counts(conn: sqlite3.Connection, user: str, stems: Iterable[str]) -> dict[str, int]:
    """How many of the user's turns hold each stem (stems held by none are absent)."""
    number = user_number(conn, user)
    wanted = sorted(set(stems))
    if number is None or not wanted:
        return {}
    counts: dict[str, int] = {}
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        rows = conn.execute(
            f"SELECT term, doc FROM {terms_name(number)} WHERE term IN ({','.join('?' * len(part))})", part
        )
        counts.update((str(term), int(doc)) for term, doc in rows)
    return counts


def turn_totals(conn: sqlite3.Connection, user: str) -> tuple[int, int]:
    """How many turns the user has, and the highest of their ids (0 for none)."""
    count, last = conn.execute("SELECT COUNT(*), MAX(id) FROM turns WHERE user = ?", (user,)).fetchone()
    return int(count), int(last or 0)


# A scratch index of this connection (schema temp: never in the file, never seen by another connection) with the
# turns index's columns and tokenizer, whose vocabulary counts the terms of a few turns exactly as the index does.
_SCRATCH = "sodamem_counting"


def count_terms_after(conn: sqlite3.Connection, user: str, last: int) -> tuple[int, int]:
    """Put the user's turns with an id above ``last`` (and only those) into the scratch index, for
    ``counted_terms``; return how many there are and the highest id among them (``last`` when none, and the scratch
    index is then left as it was)."""
    columns = COLUMNS["turns"]
    sql = f"SELECT id, {', '.join(columns)} FROM turns WHERE user = ? AND id > ?"
    rows = conn.execute(sql, (user, last)).fetchall()
    if not rows:  # a write of no turn of this user (another user's, vectors): nothing to count
        return 0, last
    conn.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{_SCRATCH} USING fts5({', '.join(columns)}, tokenize='{TOKENIZER}')"
    )
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{_SCRATCH}_terms USING fts5vocab(temp, {_SCRATCH}, 'row')")
    conn.execute(f"DELETE FROM temp.{_SCRATCH}")
    marks = ", ".join("?" * len(columns))
    conn.executemany(f"INSERT INTO temp.{_SCRATCH} ({', '.join(columns)}) VALUES ({marks})", [r[1:] for r in rows])
    return len(rows), max(int(r[0]) for r in rows)


def counted_terms(conn: sqlite3.Connection) -> list[tuple[str, int]]:
    """``(stem, turns holding it)`` over the turns ``count_terms_after`` put in the scratch index."""
    return [(str(t), int(d)) for t, d in conn.execute(f"SELECT term, doc FROM temp.{_SCRATCH}_terms")]


def index_names(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    """``(user, table, index)`` of every user's index, for integrity checks."""
    return [(user, table, index_name(table, n)) for user, n in user_numbers(conn).items() for table in COLUMNS]


def pending_count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COUNT(*) FROM fts_pending").fetchone()[0])
