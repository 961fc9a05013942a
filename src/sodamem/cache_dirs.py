"""Where SodaMem keeps files it can rebuild: ``$XDG_CACHE_HOME/sodamem`` (else ``~/.cache/sodamem``); model files
under ``models/`` there unless ``$SODAMEM_MODEL_CACHE`` names another folder. Nothing here creates a folder."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENV_MODEL_CACHE = "SODAMEM_MODEL_CACHE"


def user_cache(env: Mapping[str, str] | None = None) -> Path:
    source = os.environ if env is None else env
    xdg = source.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "sodamem"


def model_cache(env: Mapping[str, str] | None = None) -> Path:
    """The folder of downloaded and unpacked models (joined GGUF files, the unpacked mpnet)."""
    source = os.environ if env is None else env
    explicit = source.get(ENV_MODEL_CACHE, "").strip()
    return Path(explicit).expanduser() if explicit else user_cache(source) / "models"
