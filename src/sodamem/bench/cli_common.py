"""Option parsing and resources shared by the ``sodamem bench`` commands (kept apart so command modules import them
without importing the whole command group)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import click

from sodamem.cache_dirs import user_cache
from sodamem.embed import load_embedder
from sodamem.embed.base import Embedder
from sodamem.embed.cache import CachedEmbedder


def default_cache() -> Path:
    """The embedding cache the benches share unless told otherwise."""
    return user_cache() / "embeddings.db"


def parse_ks(value: str) -> tuple[int, ...]:
    """Comma-separated positive integers (k values, sizes, counts), sorted and distinct."""
    try:
        ks = tuple(sorted({int(v) for v in value.split(",") if v.strip()}))
    except ValueError:
        raise click.BadParameter(f"expected comma-separated integers, got {value!r}") from None
    if not ks or ks[0] < 1:
        raise click.BadParameter("k values must be >= 1")
    return ks


def open_embedder(spec: str, cache: Path | None) -> Embedder | None:
    """The embedder ``spec`` names (None for "none"), behind ``cache`` when one is given."""
    if spec == "none":
        return None
    embedder = load_embedder(spec)
    return CachedEmbedder(embedder, cache) if cache is not None else embedder


@contextmanager
def postgres_server(url: str | None) -> Iterator[Callable[[str], str]]:
    """``url_of(database)`` on the server of ``--pg-url``, or on a temporary pgserver one for the block."""
    from sodamem.store.postgres.scratch import server_at, temporary_server

    if url is not None:
        yield server_at(url)
        return
    with ExitStack() as stack:
        try:
            url_of = stack.enter_context(temporary_server("sodamem-bench-pg-"))
        except ImportError as exc:
            raise click.UsageError(
                f"--db-backend postgres needs --pg-url or pgserver (pip install 'sodamem[postgres]'): {exc}"
            ) from None
        yield url_of
