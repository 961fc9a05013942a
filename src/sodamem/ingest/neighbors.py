"""NEIGHBOR links: each new fact is tied to its few most similar facts (bounded degree, a similarity floor)."""

from __future__ import annotations

from collections.abc import Sequence

from sodamem.store.protocol import VectorSearch
from sodamem.store.write_protocol import Store

MAX_NEIGHBORS = 3
MIN_COSINE = 0.75


def link_similar_facts(store: Store, index: VectorSearch, fact_ids: Sequence[int]) -> int:
    """Link each fact in ``fact_ids`` to up to MAX_NEIGHBORS facts of its user with cosine >= MIN_COSINE.

    The bound is on links a fact makes when it arrives; a popular fact can still be reached by many. The nearest
    facts come from the vector index kept in memory (extended by new rows, never rebuilt for an add), so linking
    the facts of one message costs the same whatever the size of the store."""
    wanted = sorted(set(fact_ids))
    pairs: list[tuple[str, int, int]] = []
    for user, ids in store.users_of_facts(wanted).items():
        vectors = index.vectors_of(user, "facts", ids)
        for fact_id in ids:
            if fact_id not in vectors:
                continue
            nearest = index.search(user, "facts", vectors[fact_id], MAX_NEIGHBORS + 1)
            others = [(pk, score) for pk, score in nearest if pk != fact_id][:MAX_NEIGHBORS]
            pairs += [(user, fact_id, pk) for pk, score in others if score >= MIN_COSINE]
    for owner in sorted({user for user, _, _ in pairs}):
        with store.writing(owner) as writes:
            for user, a, b in pairs:
                if user == owner:
                    writes.link_neighbors(user, [(a, b)])
    return len(pairs)
