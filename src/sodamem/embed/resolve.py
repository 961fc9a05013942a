"""Which embedder a Memory uses: an explicit one, the one the database was built with, or the local default.

A database records the spec of the embedder that built it (setting ``embedder``): its vectors are under that
model's name, and search embeds queries with it. Opening it with another spec is refused
(:class:`EmbedderMismatchError`) rather than quietly searching half-embedded or mixing two models' results.
"""

from __future__ import annotations

import importlib.util

from sodamem.embed.base import Embedder
from sodamem.errors import InputError

SETTING_KEY = "embedder"


class EmbedderMismatchError(InputError):
    """The database was built with one embedder and is being opened with another."""

    def __init__(self, requested: str, recorded: str, *, file: str | None = None) -> None:
        self.requested = requested
        self.recorded = recorded
        super().__init__(
            f"this database was built with the embedder {recorded!r} and cannot be opened with {requested!r}: "
            f"open it with embedder {recorded!r} (or 'auto', the CLI's default), or 'none' for lexical search "
            "only, or build a new database with the other embedder",
            file=file,
        )

    def with_file(self, file: str) -> EmbedderMismatchError:
        return EmbedderMismatchError(self.requested, self.recorded, file=file)


def default_available() -> bool:
    """Whether the local default model's packages are installed (checked without importing them): the numpy MiniLM
    needs the tokenizer and the weights' package, not torch."""
    from sodamem.embed.minilm import NUMPY_REQUIRED

    return all(importlib.util.find_spec(name) is not None for name in NUMPY_REQUIRED)


def resolve_embedder(requested: Embedder | str | None, recorded: str | None) -> tuple[Embedder | None, str | None]:
    """Return the embedder and the spec to record in the database (None when nothing should be recorded).

    ``None``: the database's recorded embedder, else none (lexical only). ``"none"``: no embedder.
    ``"auto"``: the recorded one, else the local default when installed, else none. Other strings are specs, and
    must name the recorded embedder when the database has one (else EmbedderMismatchError, naming both).
    An Embedder object is taken as given: its caller answers for it.
    """
    from sodamem.embed import DEFAULT_EMBEDDER, canonical_spec, load_embedder

    if requested is None:
        return (load_embedder(recorded), recorded) if recorded else (None, None)
    if not isinstance(requested, str):
        return requested, None
    if requested == "none":
        return None, None
    if requested == "auto":
        spec = recorded or (DEFAULT_EMBEDDER if default_available() else None)
        return (load_embedder(spec), spec) if spec else (None, None)
    wanted = canonical_spec(requested)  # ValueError for an unknown spec, before anything else
    if recorded is not None and not _same(wanted, recorded):
        raise EmbedderMismatchError(requested, recorded)
    spec = recorded if recorded is not None else requested
    return load_embedder(spec), spec


def _same(canonical: str, recorded: str) -> bool:
    from sodamem.embed import canonical_spec

    try:
        return canonical == canonical_spec(recorded)
    except ValueError:
        return False  # the database records something unknown here: never the requested one
