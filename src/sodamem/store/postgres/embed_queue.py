"""What an add has to embed, read in one statement on PostgreSQL, and the add's turns taken off the embedding queue in
that same statement when nothing is missing.

The portable ``texts_to_embed`` (``store/live.py``) reads the turns, the pieces, the facts and their entities in four
statements, and an add whose texts the shared vector cache holds already then ran a write transaction of its own to
delete its queue rows: five waits for the server after the add's commit, each a wake-up of the server process (on a
busy machine each costs more than the work). Here it is one: the four reads are one ``UNION ALL``, and a
data-modifying ``WITH`` deletes the queue rows only where that read finds nothing. The statement is its own
transaction (the connection is in autocommit outside ``transaction()``), so the read and the delete see one
snapshot: a turn leaves the queue only if every one of its texts had a committed vector then. It takes no lock:
deleting queue rows needs none (``put_embeddings`` deletes them under the shared lock only), and it does not bump
the generation, as nothing a search reads changed.

Its commit does not wait for the WAL flush (``synchronous_commit`` off for this transaction only, set by the
statement itself: ``set_config(..., true)`` in the ``lazy`` step, which the delete reads so that it runs first). The
queue is derived state: a server crash can lose only the newest commits, in commit order, so a lost dequeue leaves
the turns queued, and the next ``Memory`` to open finds them, finds their vectors, and dequeues them
(``embed_queued``). The add's own transaction (its turns, pieces and facts) still waits for its flush. On this
machine the flush of a one-row delete cost 1-10 ms (more when the disk is busy), against ~1.5 ms for the
statement, most of it planning.
"""

from __future__ import annotations

from collections.abc import Sequence

from sodamem.store.postgres.connection import PgConnection
from sodamem.store.turn_writes import piece_embedding_text, turn_embedding_text

_MISSING = "NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model = %(m)s AND e.text_hash = {0}.embed_hash)"
# kind: 0 turn, 1 piece, 2 fact, 3 entity (the order the portable reads fill their result in). The facts drawn from
# the turns are found once for the facts and their entities (planning is most of the statement's cost: ~1 ms).
_MISSING_ROWS = (
    "WITH drawn AS MATERIALIZED (SELECT DISTINCT fs.fact_pk FROM fact_sources fs JOIN pieces p ON p.id = fs.piece_pk"
    " WHERE p.turn_pk = ANY(%(t)s)), missing AS MATERIALIZED ("
    " SELECT 0 AS kind, t.embed_hash AS h, t.speaker AS speaker, t.text AS text, t.caption AS caption FROM turns t"
    f" WHERE t.id = ANY(%(t)s) AND {_MISSING.format('t')}"
    " UNION ALL SELECT 1, p.embed_hash, t.speaker, p.text, NULL FROM pieces p JOIN turns t ON t.id = p.turn_pk"
    f" WHERE p.turn_pk = ANY(%(t)s) AND {_MISSING.format('p')}"
    " UNION ALL SELECT 2, f.embed_hash, NULL, f.text, NULL FROM facts f JOIN drawn ON f.id = drawn.fact_pk"
    f" WHERE f.embed_hash IS NOT NULL AND {_MISSING.format('f')}"
    " UNION ALL SELECT 3, n.embed_hash, NULL, n.name, NULL FROM entities n WHERE n.embed_hash IS NOT NULL"
    " AND n.id IN (SELECT r.entity_pk FROM fact_roles r JOIN drawn ON r.fact_pk = drawn.fact_pk)"
    f" AND {_MISSING.format('n')})"
)
_SELECT = " SELECT kind, h, speaker, text, caption FROM missing ORDER BY kind"
_READ = _MISSING_ROWS + _SELECT
_READ_ELSE_DEQUEUE = (
    _MISSING_ROWS + ", lazy AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true) AS setting)"
    " , dequeued AS (DELETE FROM embed_queue WHERE (SELECT setting FROM lazy) = 'off'"
    " AND turn_pk = ANY(%(t)s) AND NOT EXISTS (SELECT 1 FROM missing))" + _SELECT
)
_KINDS = ("turn", "piece", "fact", "entity")


def texts_to_embed(
    conn: PgConnection, model: str, turn_pks: Sequence[int], *, dequeue: bool
) -> dict[str, tuple[str, str]]:
    """``text_hash -> (kind, text)`` lacking a vector under ``model`` among the turns, their pieces, the facts drawn
    from them and those facts' entities (as ``live.texts_to_embed``); ``dequeue``: when there are none, the turns'
    queue rows are deleted by the same statement, which must then be a transaction of its own (not inside
    ``transaction()``: it turns ``synchronous_commit`` off for the transaction it runs in)."""
    statement = _READ_ELSE_DEQUEUE if dequeue else _READ
    rows = conn.native(statement, {"m": model, "t": [int(pk) for pk in turn_pks]}, logs=False).fetchall()
    out: dict[str, tuple[str, str]] = {}
    for kind, digest, speaker, text, caption in rows:
        if kind == 0:
            out[str(digest)] = ("turn", turn_embedding_text(speaker, text, caption))
        elif kind == 1:
            out[str(digest)] = ("piece", piece_embedding_text(speaker, text))
        else:
            out[str(digest)] = (_KINDS[kind], str(text))
    return out
