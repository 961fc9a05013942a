"""Named schema migrations, applied in order and recorded in the ``_migrations`` table.

Append new migrations at the end; never edit one that has shipped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime

from sodamem.store import fts

_TOKENIZER = "porter unicode61 remove_diacritics 2"

_M0001_CORE = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    session_id TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',
    content_hash TEXT NOT NULL,
    ingested_at TEXT NOT NULL,
    UNIQUE (user, session_id)
);
CREATE INDEX sessions_user_time ON sessions (user, timestamp);

CREATE TABLE turns (
    id INTEGER PRIMARY KEY,
    session_pk INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user TEXT NOT NULL,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    turn_id TEXT NOT NULL,
    speaker TEXT NOT NULL,
    text TEXT NOT NULL,
    caption TEXT,
    timestamp TEXT NOT NULL,
    UNIQUE (session_pk, idx)
);
CREATE INDEX turns_user_turn_id ON turns (user, turn_id);

CREATE TABLE pieces (
    id INTEGER PRIMARY KEY,
    turn_pk INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    user TEXT NOT NULL,
    idx INTEGER NOT NULL CHECK (idx >= 0),
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    text TEXT NOT NULL,
    UNIQUE (turn_pk, idx),
    CHECK (char_start >= 0 AND char_end > char_start AND length(text) = char_end - char_start)
);

CREATE TABLE entities (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL DEFAULT 'unknown',
    aliases TEXT NOT NULL DEFAULT '[]',
    UNIQUE (user, name)
);

CREATE TABLE facts (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN
        ('preference', 'attribute', 'state', 'event', 'plan', 'relation', 'opinion')),
    predicate TEXT NOT NULL,
    modality TEXT NOT NULL CHECK (modality IN
        ('asserted', 'negated', 'hypothetical', 'planned', 'reported', 'question')),
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'superseded', 'invalid')),
    text TEXT NOT NULL DEFAULT '',
    mentioned_at TEXT NOT NULL,
    occurred_start TEXT,
    occurred_end TEXT,
    occurred_granularity TEXT,
    occurred_expression TEXT,
    valid_from TEXT,
    valid_to TEXT
);
CREATE INDEX facts_user_slot ON facts (user, predicate, status);

-- A fact's literal sources (mandatory: the repository refuses a fact without one).
CREATE TABLE fact_sources (
    fact_pk INTEGER NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    piece_pk INTEGER NOT NULL REFERENCES pieces (id) ON DELETE CASCADE,
    char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL,
    quote TEXT NOT NULL,
    PRIMARY KEY (fact_pk, piece_pk, char_start, char_end)
);

CREATE TABLE fact_roles (
    fact_pk INTEGER NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    entity_pk INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    PRIMARY KEY (fact_pk, entity_pk, role)
);

CREATE TABLE links (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN
        ('DERIVED_FROM', 'SUPERSEDES', 'CONTRADICTS', 'UPDATES', 'MENTIONS', 'NEIGHBOR')),
    src_kind TEXT NOT NULL CHECK (src_kind IN ('fact', 'piece', 'entity')),
    src_id INTEGER NOT NULL,
    dst_kind TEXT NOT NULL CHECK (dst_kind IN ('fact', 'piece', 'entity')),
    dst_id INTEGER NOT NULL,
    created_at TEXT
);
CREATE INDEX links_src ON links (user, src_kind, src_id);
CREATE INDEX links_dst ON links (user, dst_kind, dst_id);
"""


def _fts_for(table: str, columns: tuple[str, ...]) -> str:
    """An external-content FTS5 index over ``table`` kept in step by triggers."""
    cols = ", ".join(columns)
    new = ", ".join(f"new.{c}" for c in columns)
    old = ", ".join(f"old.{c}" for c in columns)
    return f"""
CREATE VIRTUAL TABLE {table}_fts USING fts5({cols}, content='{table}', content_rowid='id',
    tokenize='{_TOKENIZER}');
CREATE TRIGGER {table}_fts_insert AFTER INSERT ON {table} BEGIN
    INSERT INTO {table}_fts (rowid, {cols}) VALUES (new.id, {new});
END;
CREATE TRIGGER {table}_fts_delete AFTER DELETE ON {table} BEGIN
    INSERT INTO {table}_fts ({table}_fts, rowid, {cols}) VALUES ('delete', old.id, {old});
END;
CREATE TRIGGER {table}_fts_update AFTER UPDATE ON {table} BEGIN
    INSERT INTO {table}_fts ({table}_fts, rowid, {cols}) VALUES ('delete', old.id, {old});
    INSERT INTO {table}_fts (rowid, {cols}) VALUES (new.id, {new});
END;
"""


_M0003_EMBEDDINGS = """
-- Vectors cached by (model, sha256 of the embedded text): nothing is embedded twice, across users and sessions.
CREATE TABLE embeddings (
    model TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    dim INTEGER NOT NULL CHECK (dim > 0),
    vector BLOB NOT NULL CHECK (length(vector) = 4 * dim),
    PRIMARY KEY (model, text_hash)
) WITHOUT ROWID;
ALTER TABLE turns ADD COLUMN embed_hash TEXT;
ALTER TABLE pieces ADD COLUMN embed_hash TEXT;
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

_M0004_FACT_SLOTS = """
-- What supersession and provenance need: the session a fact came from (deleted with it), its subject entity,
-- its value, the slot it competes in, and the order key that makes supersession independent of ingestion order.
ALTER TABLE facts ADD COLUMN session_pk INTEGER REFERENCES sessions (id) ON DELETE CASCADE;
ALTER TABLE facts ADD COLUMN subject_pk INTEGER REFERENCES entities (id);
ALTER TABLE facts ADD COLUMN object TEXT;
ALTER TABLE facts ADD COLUMN polarity INTEGER NOT NULL DEFAULT 1;
ALTER TABLE facts ADD COLUMN slot TEXT;
ALTER TABLE facts ADD COLUMN order_key TEXT NOT NULL DEFAULT '';
ALTER TABLE facts ADD COLUMN embed_hash TEXT;
ALTER TABLE entities ADD COLUMN embed_hash TEXT;
CREATE INDEX facts_user_slot_key ON facts (user, slot);
-- Every name an entity goes by (its own included), by entity_key(): how mentions find their entity.
CREATE TABLE entity_aliases (
    user TEXT NOT NULL,
    key TEXT NOT NULL,
    entity_pk INTEGER NOT NULL REFERENCES entities (id) ON DELETE CASCADE,
    PRIMARY KEY (user, key)
);
CREATE INDEX facts_session ON facts (session_pk);
CREATE INDEX fact_roles_entity ON fact_roles (entity_pk);
CREATE VIRTUAL TABLE entities_fts USING fts5(name, aliases, content='entities', content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2');
CREATE TRIGGER entities_fts_insert AFTER INSERT ON entities BEGIN
    INSERT INTO entities_fts (rowid, name, aliases) VALUES (new.id, new.name, new.aliases);
END;
CREATE TRIGGER entities_fts_delete AFTER DELETE ON entities BEGIN
    INSERT INTO entities_fts (entities_fts, rowid, name, aliases) VALUES ('delete', old.id, old.name, old.aliases);
END;
CREATE TRIGGER entities_fts_update AFTER UPDATE OF name, aliases ON entities BEGIN
    INSERT INTO entities_fts (entities_fts, rowid, name, aliases) VALUES ('delete', old.id, old.name, old.aliases);
    INSERT INTO entities_fts (rowid, name, aliases) VALUES (new.id, new.name, new.aliases);
END;
-- Links die with the facts they join (links hold no foreign keys: their endpoints are of several kinds).
CREATE TRIGGER facts_drop_links AFTER DELETE ON facts BEGIN
    DELETE FROM links WHERE (src_kind = 'fact' AND src_id = old.id) OR (dst_kind = 'fact' AND dst_id = old.id);
END;
"""


def _row_deletions() -> str:
    """A counter per vector-bearing table, bumped by every deleted row (cascades included), so an in-memory vector
    index can tell "rows were only added since I was built" (append them) from "some went" (rebuild)."""
    tables = ("turns", "pieces", "facts", "entities")
    sql = "CREATE TABLE row_deletions (tbl TEXT PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0);\n"
    sql += "INSERT INTO row_deletions (tbl) VALUES " + ", ".join(f"('{t}')" for t in tables) + ";\n"
    for table in tables:
        sql += (
            f"CREATE TRIGGER {table}_count_deletions AFTER DELETE ON {table} BEGIN\n"
            f"    UPDATE row_deletions SET n = n + 1 WHERE tbl = '{table}';\nEND;\n"
        )
    return sql


_M0007_LIVE = """
-- Turns added message by message whose vectors are not written yet: the add's transaction queues them, the
-- embedding right after it empties the queue; a crash in between leaves them here for the next open to embed.
CREATE TABLE embed_queue (
    turn_pk INTEGER PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE
);
-- What was forgotten, when and how much: counts and ids, never the text.
CREATE TABLE forget_log (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    forgotten_at TEXT NOT NULL,
    selector TEXT NOT NULL,
    counts TEXT NOT NULL,
    ids TEXT NOT NULL
);
CREATE INDEX turns_session_turn_id ON turns (session_pk, turn_id);
"""


_M0009_FORGET_INDEXES = """
-- What a forget looks up: the facts citing a piece (also SQLite's foreign-key check when a piece goes), the facts
-- naming an entity, and whether any row still has a text whose cached vector would go (16 hex digits of the
-- hash suffice to find the few candidates, at a third of the index's size).
CREATE INDEX fact_sources_piece ON fact_sources (piece_pk);
CREATE INDEX facts_subject ON facts (subject_pk);
CREATE INDEX turns_embed_key ON turns (substr(embed_hash, 1, 16));
CREATE INDEX pieces_embed_key ON pieces (substr(embed_hash, 1, 16));
CREATE INDEX facts_embed_key ON facts (substr(embed_hash, 1, 16));
CREATE INDEX entities_embed_key ON entities (substr(embed_hash, 1, 16));
-- In a memory with an embedder, every new turn (an add, an ingest, an import) is queued for its vectors in its
-- own transaction; the vectors are written right after it, and a process killed in between leaves the queue to
-- the next open.
-- The index the next added turn takes at least: forgetting a session's last turns must not free their indexes
-- (and default ids), or an old citation would come to name other text.
ALTER TABLE sessions ADD COLUMN next_index INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER turns_queue_embedding AFTER INSERT ON turns WHEN EXISTS (SELECT 1 FROM settings WHERE key = 'embedder')
BEGIN
    INSERT OR IGNORE INTO embed_queue (turn_pk) VALUES (new.id);
END;
"""


_M0010_API_KEYS = """
-- Keys of the HTTP and MCP server: only a SHA-256 of each key is kept (the key itself is shown once, at creation);
-- each key belongs to exactly one user. A revoked key stays listed, with when.
CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    user TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
CREATE INDEX api_keys_user ON api_keys (user);
"""


_M0011_TURN_MENTIONS = """
-- What each turn names (spaCy's entities with their labels, and nouns), read once when the turn is stored, for the
-- answer-type tunnel (retrieve/aggregate.py). Derived data: a turn without a row is read again when needed.
CREATE TABLE turn_mentions (
    turn_pk INTEGER PRIMARY KEY REFERENCES turns (id) ON DELETE CASCADE,
    mentions TEXT NOT NULL
);
"""


def _fts_per_user(conn: sqlite3.Connection) -> None:
    """One set of FTS indexes per user (store/fts.py) replaces the shared ones, whose BM25 statistics mixed users."""
    for table in fts.COLUMNS:
        for event in ("insert", "delete", "update"):
            conn.execute(f"DROP TRIGGER IF EXISTS {table}_fts_{event}")
    conn.execute("DROP TABLE IF EXISTS turns_fts_terms")
    for table in fts.COLUMNS:
        conn.execute(f"DROP TABLE IF EXISTS {table}_fts")
    for statement in _statements(fts.SCHEMA + fts.log_triggers()):
        conn.execute(statement)
    users = sorted({str(r[0]) for t in fts.COLUMNS for r in conn.execute(f"SELECT DISTINCT user FROM {t}")})
    for user in users:
        fts.create_user_indexes(conn, user, fill=True)


# A fact the user forgot, named by the piece it was read from and a hash of its predicate and value, never its text:
# making the facts of its turn again (a later add to the session) must not bring it back. It goes with its piece.
_M0012_FORGOTTEN_FACTS = """
CREATE TABLE forgotten_facts (
    user TEXT NOT NULL,
    piece_pk INTEGER NOT NULL REFERENCES pieces (id) ON DELETE CASCADE,
    fact_key TEXT NOT NULL,
    PRIMARY KEY (piece_pk, fact_key)
);
"""

# Tables whose row ids are public (``fact(id)``, ``forget(fact_id=)``, ``piece(id)``). SQLite gives a new row the
# largest id + 1, so forgetting the newest fact handed its id to the next one: a retried forget, or an agent holding
# the id, then reached another fact. AUTOINCREMENT never reuses an id; it needs the table made anew.
_NEVER_REUSED = ("facts", "pieces")
_ID_COLUMN = "id INTEGER PRIMARY KEY,"


def _ids_never_reused(conn: sqlite3.Connection) -> None:
    """Make each table of ``_NEVER_REUSED`` anew with AUTOINCREMENT: the same columns, rows, ids, indexes and
    triggers. Runs with foreign keys off (``REBUILDS``): dropping the old table must not cascade to the rows that
    cite it, which then cite the new one by name."""
    for table in _NEVER_REUSED:
        (created,) = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        if "AUTOINCREMENT" in created.upper():
            continue
        if _ID_COLUMN not in created:
            raise RuntimeError(f"table {table}: no '{_ID_COLUMN}' column to make AUTOINCREMENT")
        attached = [
            str(r[0])
            for r in conn.execute(
                "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL",
                (table,),
            )
        ]
        rebuilt = f"{table}_rebuilt"
        conn.execute(
            created.replace(f"CREATE TABLE {table}", f"CREATE TABLE {rebuilt}", 1).replace(
                _ID_COLUMN, "id INTEGER PRIMARY KEY AUTOINCREMENT,", 1
            )
        )
        conn.execute(f"INSERT INTO {rebuilt} SELECT * FROM {table}")
        conn.execute(f"DROP TABLE {table}")
        # Legacy renaming: the users' views name the table ("facts_of_u1"); they are neither checked against the
        # dropped table nor rewritten, and name the new one once it takes the old name.
        conn.execute("PRAGMA legacy_alter_table = ON")
        try:
            conn.execute(f"ALTER TABLE {rebuilt} RENAME TO {table}")
        finally:
            conn.execute("PRAGMA legacy_alter_table = OFF")
        for statement in attached:
            conn.execute(statement)
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise RuntimeError(f"rebuilding {', '.join(_NEVER_REUSED)} broke {len(broken)} foreign keys")


MIGRATIONS: tuple[tuple[str, str | Callable[[sqlite3.Connection], None]], ...] = (
    ("0001_core_tables", _M0001_CORE),
    (
        "0002_fts_indexes",
        _fts_for("turns", ("text", "caption"))
        + _fts_for("pieces", ("text",))
        + _fts_for("facts", ("text", "predicate")),
    ),
    ("0003_embeddings", _M0003_EMBEDDINGS),
    ("0004_fact_slots", _M0004_FACT_SLOTS),
    ("0005_row_deletions", _row_deletions()),
    # How many turns hold each (stemmed) word: the rarity that weighs pseudo-relevance feedback (retrieve/feedback.py).
    # A read-only view of the FTS index; it stores nothing itself.
    ("0006_turn_term_counts", "CREATE VIRTUAL TABLE turns_fts_terms USING fts5vocab(turns_fts, 'row');"),
    ("0007_live_memory", _M0007_LIVE),
    ("0008_fts_per_user", _fts_per_user),
    ("0009_forget_indexes", _M0009_FORGET_INDEXES),
    ("0010_api_keys", _M0010_API_KEYS),
    ("0011_turn_mentions", _M0011_TURN_MENTIONS),
    ("0012_forgotten_facts", _M0012_FORGOTTEN_FACTS),
    ("0013_ids_never_reused", _ids_never_reused),
)
REBUILDS = frozenset({"0013_ids_never_reused"})  # run with foreign keys off (they cannot change in a transaction)


def apply_migrations(conn: sqlite3.Connection) -> list[str]:
    """Apply the migrations this database lacks, each in its own transaction; return their names.

    Whether a migration is done is read again inside its write transaction: several processes opening a new file
    at once apply each migration exactly once (the others wait for the lock, then see it recorded)."""
    conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    done = {row[0] for row in conn.execute("SELECT name FROM _migrations")}
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        if name in REBUILDS:
            conn.execute("PRAGMA foreign_keys = OFF")
        try:
            if _apply(conn, name, sql):
                applied.append(name)
        finally:
            if name in REBUILDS:
                conn.execute("PRAGMA foreign_keys = ON")
    return applied


def _apply(conn: sqlite3.Connection, name: str, sql: str | Callable[[sqlite3.Connection], None]) -> bool:
    """One migration in its own write transaction; False when another process applied it meanwhile."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone() is not None:
            conn.execute("COMMIT")  # another process applied it while this one waited
            return False
        if callable(sql):
            sql(conn)
        else:
            for statement in _statements(sql):
                conn.execute(statement)
        conn.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, datetime.now(UTC).isoformat()))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return True


def _statements(sql: str) -> list[str]:
    """Split a script into statements (``executescript`` would commit our transaction)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        if line.strip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
