"""Embed what the store holds but has no vector for yet, in batches, into the (model, text hash) cache."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from sodamem.embed.base import Embedder
from sodamem.store.write_protocol import Store

BATCH = 256


def embed_missing(
    store: Store,
    embedder: Embedder,
    *,
    user: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Embed every turn and piece text lacking a vector under ``embedder.name``; return how many were embedded."""
    missing = store.missing_embeddings(embedder.name, user)
    items = sorted(missing.items(), key=lambda item: len(item[1]))  # similar lengths batch with less padding
    if progress is not None:
        progress(0, len(items))
    for start in range(0, len(items), BATCH):
        batch = items[start : start + BATCH]
        vectors = np.asarray(embedder.embed([text for _, text in batch]), dtype=np.float32)
        if vectors.shape != (len(batch), embedder.dim):
            raise ValueError(f"embedder {embedder.name} returned shape {vectors.shape} for {len(batch)} texts")
        store.put_embeddings(
            embedder.name, [(digest, vectors[i].tobytes()) for i, (digest, _) in enumerate(batch)], embedder.dim
        )
        if progress is not None:
            progress(start + len(batch), len(items))
    return len(items)


def embed_queued(
    store: Store, embedder: Embedder, turn_pks: Sequence[int] | None = None, *, user: str | None = None
) -> int:
    """Embed what added turns brought (their pieces, facts, entities) and take them off the queue: the cost of one
    add, whatever the size of the store. ``turn_pks``: those turns only (an add's own); None: the whole queue, e.g.
    turns a crashed process queued but never embedded. ``user``: whose turns they are (their write lock only)."""
    queued = store.queued_turns() if turn_pks is None else list(turn_pks)
    if not queued:
        return 0
    missing = store.texts_to_embed_else_dequeue(embedder.name, queued, user)
    items = list(missing.items())
    for start in range(0, len(items), BATCH):
        batch = items[start : start + BATCH]
        vectors = np.asarray(embedder.embed([text for _, (_, text) in batch]), dtype=np.float32)
        if vectors.shape != (len(batch), embedder.dim):
            raise ValueError(f"embedder {embedder.name} returned shape {vectors.shape} for {len(batch)} texts")
        last = start + BATCH >= len(items)  # the queue entries go with the last vectors: one commit, not two
        store.put_embeddings(
            embedder.name,
            [(digest, vectors[i].tobytes()) for i, (digest, _) in enumerate(batch)],
            embedder.dim,
            dequeue=queued if last else (),
        )
    return len(items)  # none: the queue entries went with the read
