"""NEIGHBOR links: each new fact is tied to its few most similar facts (bounded degree, a similarity floor)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sodamem.store.facts import link_neighbors
from sodamem.store.sqlite import SQLiteStore
from sodamem.store.vectors import VectorIndex

MAX_NEIGHBORS = 3
MIN_COSINE = 0.75


def link_similar_facts(store: SQLiteStore, index: VectorIndex, fact_ids: Sequence[int]) -> int:
    """Link each fact in ``fact_ids`` to up to MAX_NEIGHBORS facts of its user with cosine >= MIN_COSINE.

    The bound is on links a fact makes when it arrives; a popular fact can still be reached by many.
    """
    wanted = sorted(set(fact_ids))
    by_user: dict[str, list[int]] = {}
    for row in store.conn.execute(
        f"SELECT user, id FROM facts WHERE id IN ({','.join('?' * len(wanted))})", tuple(wanted)
    ):
        by_user.setdefault(str(row[0]), []).append(int(row[1]))
    pairs: list[tuple[str, int, int]] = []
    for user, ids in by_user.items():
        all_ids, vectors = index.matrix(user, "facts")
        if len(all_ids) < 2:
            continue
        position = {int(pk): i for i, pk in enumerate(all_ids)}
        for fact_id in ids:
            if fact_id not in position:
                continue
            scores = vectors @ vectors[position[fact_id]]
            scores[position[fact_id]] = -1.0
            best = np.argsort(-scores)[:MAX_NEIGHBORS]
            pairs += [(user, fact_id, int(all_ids[i])) for i in best if scores[i] >= MIN_COSINE]
    with store.transaction() as conn:
        for user, a, b in pairs:
            link_neighbors(conn, user, [(a, b)])
    return len(pairs)
