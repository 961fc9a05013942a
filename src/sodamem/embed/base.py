"""The Embedder protocol: text in, L2-normalised float32 vectors out.

Some models encode a search query differently from a stored text (e5 reads ``"query: "`` and ``"passage: "``
prefixes). Such an embedder also has ``embed_queries``; ``embed`` is always the stored-text side. Callers that
embed a search query go through :func:`embed_queries`, which falls back to ``embed`` for symmetric models, so every
existing Embedder keeps working unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

Vectors = NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    @property
    def name(self) -> str:
        """Identifies the model and its settings: the embedding cache is keyed by (name, sha256 of text)."""
        ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Return an array of shape ``(len(texts), dim)``, rows L2-normalised (``(0, dim)`` for no texts).

        These are the stored texts (turns, pieces, facts): the "passage" side of an asymmetric model."""
        ...


@runtime_checkable
class QueryEmbedder(Embedder, Protocol):
    """An asymmetric embedder: search queries get their own encoding (same shape and dimension as ``embed``)."""

    def embed_queries(self, texts: Sequence[str]) -> Vectors: ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """Vectors for search queries: ``embedder.embed_queries`` where the model has one, else ``embedder.embed``."""
    method = getattr(embedder, "embed_queries", None)
    if method is None:
        return embedder.embed(texts)
    vectors: Vectors = method(texts)
    return vectors
