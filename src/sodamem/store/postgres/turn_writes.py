"""Turns with their pieces, and their lexical index rows, stored by one statement (the PostgreSQL store's
``insert_turns``; the portable one, ``store/turn_writes.py``, makes a statement per row).

Everything to index is known before the insert (the texts are the client's), so the index rows travel with the
rows: one statement, one trigger-free path, where the change log (``lexical.py``) had each new row written to
``fts_pending`` by a trigger, read back, tokenized, and deleted again by the drain (each log row written to the WAL
twice). The log triggers pass over a row inserted with its ``fts_docs`` row (migration 0010): the drain applies
only the rest (facts, entities, later updates and deletes, whose net effect it computes as before).

A new row's id is known only once inserted, so the index rows name it by ``(turn index, piece index)`` (-1 for a
turn), unique among the session's new rows, and the statement joins them to the ids the inserts return.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sodamem.model import MessagePiece, Session, Turn
from sodamem.store.hashes import text_hash
from sodamem.store.postgres.connection import PgConnection
from sodamem.store.postgres.lexical import STATISTICS_CTES, index_rows
from sodamem.store.postgres.tokens import Fts5Tokenizer
from sodamem.store.turn_writes import InsertedTurns, piece_embedding_text, turn_embedding_text

_INSERT = (
    """
WITH j AS (SELECT %(rows)s::jsonb AS j),
t AS (INSERT INTO turns (session_pk, "user", idx, turn_id, speaker, text, caption, timestamp, embed_hash)
    SELECT %(session)s, %(user)s, (e->>0)::int, e->>1, e->>2, e->>3, e->>4, e->>5, e->>6
    FROM j, jsonb_array_elements(j.j->'turns') WITH ORDINALITY AS x (e, n) ORDER BY n
    RETURNING id, idx),
p AS (INSERT INTO pieces (turn_pk, "user", idx, char_start, char_end, text, embed_hash)
    SELECT t.id, %(user)s, (e->>1)::int, (e->>2)::int, (e->>3)::int, e->>4, e->>5
    FROM j CROSS JOIN jsonb_array_elements(j.j->'pieces') WITH ORDINALITY AS x (e, n) JOIN t ON t.idx = (e->>0)::int
    ORDER BY n
    RETURNING id, turn_pk, idx),
ids AS (SELECT 'turns' AS tbl, idx AS ti, -1 AS pi, id FROM t
    UNION ALL SELECT 'pieces', t.idx, p.idx, p.id FROM p JOIN t ON t.id = p.turn_pk),
docs AS (INSERT INTO fts_docs (tbl, rid, "user", len)
    SELECT ids.tbl, ids.id, %(user)s, (e->>2)::int FROM j CROSS JOIN jsonb_array_elements(j.j->'docs') e
    JOIN ids ON ids.ti = (e->>0)::int AND ids.pi = (e->>1)::int),
postings AS (INSERT INTO fts_postings (tbl, "user", term, rid, col, tf, len)
    SELECT ids.tbl, %(user)s, e->>0, ids.id, (e->>3)::smallint, (e->>4)::int, (e->>5)::int
    FROM j CROSS JOIN jsonb_array_elements(j.j->'postings') e
    JOIN ids ON ids.ti = (e->>1)::int AND ids.pi = (e->>2)::int),"""
    + STATISTICS_CTES
    + "SELECT ti, pi, id FROM ids"
)


def insert_indexed_turns(
    conn: PgConnection,
    tokenizer: Fts5Tokenizer,
    user: str,
    session_pk: int,
    session: Session,
    turns: Sequence[Turn],
    pieces: Sequence[Sequence[MessagePiece]],
) -> InsertedTurns:
    """Insert turns (with their pieces) into a stored session, indexed: ``store/turn_writes.py``'s ``insert_turns``
    in one statement."""
    if not turns:
        return InsertedTurns([], {})
    turn_rows: list[tuple[object, ...]] = []
    piece_rows: list[tuple[object, ...]] = []
    texts: list[tuple[str, tuple[int, int], str, str | None, str | None]] = []
    for turn, turn_pieces in zip(turns, pieces, strict=True):
        turn_rows.append(
            (
                turn.index,
                turn.turn_id,
                turn.speaker,
                turn.text,
                turn.caption,
                (turn.timestamp or session.timestamp).isoformat(),
                text_hash(turn_embedding_text(turn.speaker, turn.text, turn.caption)),
            )
        )
        texts.append(("turns", (turn.index, -1), user, turn.text, turn.caption))
        for p in turn_pieces:
            piece_rows.append(
                (
                    turn.index,
                    p.index,
                    p.char_start,
                    p.char_end,
                    p.text,
                    text_hash(piece_embedding_text(turn.speaker, p.text)),
                )
            )
            texts.append(("pieces", (turn.index, p.index), user, p.text, None))
    index = index_rows(tokenizer, texts)
    rows = {
        "turns": turn_rows,
        "pieces": piece_rows,
        "docs": [(*ref, length) for _, ref, _, length in index.docs],
        "postings": [(term, *ref, col, tf, length) for _, _, term, ref, col, tf, length in index.postings],
        "terms": index.terms,
        "totals": index.totals,
    }
    # its rows go in with their index rows, which the log triggers pass over: nothing to drain for them
    cursor = conn.native(_INSERT, {"rows": json.dumps(rows), "session": session_pk, "user": user}, logs=False)

    def read() -> tuple[list[int], dict[tuple[int, int], int]]:  # when asked: often with the drain's read
        pks = {(int(ti), int(pi)): int(pk) for ti, pi, pk in cursor.fetchall()}
        return [pks[(t.index, -1)] for t in turns], {
            (t.index, p.index): pks[(t.index, p.index)] for t, ps in zip(turns, pieces, strict=True) for p in ps
        }

    return InsertedTurns(read=read)
