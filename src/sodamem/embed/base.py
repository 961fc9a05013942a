"""The Embedder protocol: text in, L2-normalised float32 vectors out."""

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
        """Return an array of shape ``(len(texts), dim)``, rows L2-normalised (``(0, dim)`` for no texts)."""
        ...
