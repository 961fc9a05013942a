"""Which statements may write to the PostgreSQL store's lexical change log (``PgConnection.may_log``): a write
transaction none of whose statements may commits without reading the log back. A statement judged not to log that
does would leave changes unindexed (the PostgreSQL tests check every such commit, ``tests/postgres_server.py``)."""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg", reason="the PostgreSQL store needs psycopg (pip install -e '.[postgres]')")

from sodamem.store.postgres.connection import may_log


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO facts (user, kind, text) VALUES (?, ?, ?)",
        "INSERT OR IGNORE INTO entities (user, name) VALUES (?, ?)",
        "UPDATE facts SET status = ? WHERE id = ?",
        "update pieces set text = ? where id = ?",
        "DELETE FROM turns WHERE id = ?",
        "DELETE FROM sessions WHERE id = ?",  # cascades to turns, pieces, facts
        'DELETE FROM ONLY "turns" WHERE id = %s',
        "WITH t AS (INSERT INTO turns (text) VALUES (%s) RETURNING id) SELECT id FROM t",
        "INSERT INTO fts_pending (tbl, op, rid, \"user\", c1, c2) SELECT 'turns', 'insert', id, \"user\", text, caption"
        " FROM turns",
        "SELECT id FROM facts WHERE status = 'active' FOR UPDATE",  # a write keyword whose target is not followed
        "TRUNCATE turns",
        "MERGE INTO facts f USING x ON f.id = x.id WHEN MATCHED THEN DELETE",
        "CALL reindex_everything()",
    ],
)
def test_statements_that_may_log(sql: str) -> None:
    assert may_log(sql)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT s.id, t.text FROM sessions s LEFT JOIN turns t ON t.session_pk = s.id WHERE s.user = ?",
        "UPDATE sessions SET content_hash = ? WHERE id = ?",
        "INSERT INTO sessions (user, session_id) VALUES (?, ?)",
        "INSERT INTO links (user, type, src_kind, src_id) VALUES (?, ?, ?, ?)",
        "INSERT OR IGNORE INTO fact_sources (fact_pk, piece_pk) VALUES (?, ?)",
        "INSERT INTO settings (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
        "INSERT INTO embeddings (model, text_hash) SELECT %s, x.h FROM x ON CONFLICT DO NOTHING",
        "WITH along AS (UPDATE store_state SET generation = generation + 1) DELETE FROM embed_queue",
        "SELECT text FROM turns WHERE text = 'DELETE FROM turns'",  # a string is not a statement
        "SELECT pg_advisory_xact_lock(1, 2)",
        "DELETE FROM embed_queue WHERE turn_pk = ANY(%s)",
    ],
)
def test_statements_that_do_not(sql: str) -> None:
    assert not may_log(sql)
