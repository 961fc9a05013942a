"""Scratch PostgreSQL databases for the benchmarks' ``--db-backend postgres``: a server (the one at ``--pg-url``,
or a temporary one started with the ``pgserver`` wheel) and a fresh database per unit, dropped after it."""

from __future__ import annotations

import itertools
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path


@contextmanager
def postgres_server(url: str | None) -> Iterator[Callable[[str], str]]:
    """``url_of(database)`` on the server at ``url`` (a database URL whose database is used to create others), or
    on a temporary server for the length of the block."""
    if url is not None:
        base, _, query = url.partition("?")
        root = base.rsplit("/", 1)[0]
        yield lambda name: f"{root}/{name}" + (f"?{query}" if query else "")
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset
            from pgserver.postgres_server import get_server
    except ImportError as exc:
        raise RuntimeError(
            f"--db-backend postgres needs --pg-url or pgserver (pip install 'sodamem[postgres]'): {exc}"
        ) from None
    with tempfile.TemporaryDirectory(prefix="sodamem-bench-pg-") as folder:
        server = get_server(Path(folder) / "pgdata", cleanup_mode="stop")
        try:
            yield lambda name: str(server.get_uri(name))
        finally:
            server.cleanup()


def scratch_databases(url_of: Callable[[str], str]) -> Callable[[], AbstractContextManager[str]]:
    """A factory of fresh databases: each ``with factory() as url`` creates one and drops it afterwards."""
    import psycopg

    numbers = itertools.count()

    @contextmanager
    def fresh() -> Iterator[str]:
        name = f"sodamem_bench_{os.getpid()}_{next(numbers)}"
        with psycopg.connect(url_of("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        try:
            yield url_of(name)
        finally:
            with psycopg.connect(url_of("postgres"), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return fresh
