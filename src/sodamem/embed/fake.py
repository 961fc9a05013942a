"""A deterministic fake embedder for tests: hashed bag of words and character trigrams, no model, no I/O.

Texts that share words (or word fragments) get a higher cosine than unrelated texts; the same text always gets
the same vector, in every process (features are hashed with ``hashlib.blake2b``, never Python's salted ``hash()``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from sodamem.embed.base import Vectors

_WORD = re.compile(r"\w+", re.UNICODE)
_SEED = b"sodamem-fake-v1"
_WORD_WEIGHT = 1.0
_TRIGRAM_WEIGHT = 0.35


class FakeEmbedder:
    """Not a language model: a signed feature-hashing projection, for tests and offline demos only."""

    def __init__(self, dim: int = 64) -> None:
        if dim < 1:
            raise ValueError(f"FakeEmbedder dim must be at least 1, got {dim}")
        self._dim = dim
        # The vector of a text with no features (empty or punctuation only): fixed, unit length, no zero entries.
        self._empty = np.full(dim, 1.0 / np.sqrt(dim), dtype=np.float32)

    @property
    def name(self) -> str:
        return f"fake-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    def __repr__(self) -> str:
        return f"FakeEmbedder(dim={self._dim})"

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.empty((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            out[row] = self._embed_one(text)
        return out

    def _embed_one(self, text: str) -> Vectors:
        vec = np.zeros(self._dim, dtype=np.float64)
        for word in _WORD.findall(text.lower()):
            self._add(vec, "w:" + word, _WORD_WEIGHT)
            padded = f"#{word}#"
            for i in range(len(padded) - 2):
                self._add(vec, "t:" + padded[i : i + 3], _TRIGRAM_WEIGHT)
        norm = float(np.linalg.norm(vec))
        if norm == 0.0:
            return self._empty.copy()
        return (vec / norm).astype(np.float32)

    def _add(self, vec: NDArray[np.float64], feature: str, weight: float) -> None:
        digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8, key=_SEED).digest()
        value = int.from_bytes(digest, "little")
        index = (value >> 1) % self._dim
        sign = 1.0 if value & 1 else -1.0
        vec[index] += sign * weight
