"""Text embedders. ``import sodamem.embed`` imports neither torch nor onnxruntime: the backends load on demand."""

from __future__ import annotations

from sodamem.embed.base import Embedder, Vectors
from sodamem.embed.fake import FakeEmbedder

#: Specs :func:`load_embedder` accepts; ``fake`` also takes a dimension, as in ``fake-128``.
EMBEDDER_CHOICES: tuple[str, ...] = ("minilm", "minilm-int8", "fake")
DEFAULT_EMBEDDER = "minilm"

__all__ = ["DEFAULT_EMBEDDER", "EMBEDDER_CHOICES", "Embedder", "FakeEmbedder", "Vectors", "load_embedder"]


def load_embedder(spec: str = DEFAULT_EMBEDDER) -> Embedder:
    """The embedder a spec names: ``minilm`` (torch), ``minilm-int8`` (ONNX int8), ``fake`` or ``fake-<dim>``.

    Raises ValueError for an unknown spec and MissingDependencyError when the backend's packages are missing.
    No model is loaded here: the backends load their weights on the first ``embed`` call.
    """
    key = spec.strip().lower()
    if key == "minilm":
        from sodamem.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if key == "minilm-int8":
        from sodamem.embed.onnx import OnnxMiniLMEmbedder

        return OnnxMiniLMEmbedder()
    if key == "fake":
        return FakeEmbedder()
    if key.startswith("fake-"):
        digits = key.removeprefix("fake-")
        if digits.isascii() and digits.isdigit() and int(digits) >= 1:
            return FakeEmbedder(int(digits))
        raise ValueError(f"bad fake embedder spec {spec!r}: expected fake-<dim> with a positive integer dim")
    raise ValueError(f"unknown embedder {spec!r}: choose one of {', '.join(EMBEDDER_CHOICES)}, or fake-<dim>")
