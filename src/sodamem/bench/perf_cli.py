"""``sodamem bench perf`` and ``sodamem bench pg-adds``: ingest, search and add timings on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import click

from sodamem.bench.cli_common import default_cache, open_embedder, parse_ks, postgres_server
from sodamem.embed import DEFAULT_EMBEDDER, EMBEDDER_CHOICES


@click.command("perf")
@click.option("--data", "data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--sizes", default="1000,10000,100000", show_default=True, help="Corpus sizes in turns.")
@click.option("--embed-sizes", default=None, help="Sizes that also ingest and search with embeddings (default all).")
@click.option("--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES, "none"]), show_default=True)
@click.option("--queries", default=200, show_default=True, type=click.IntRange(min=10))
@click.option("--workdir", type=click.Path(file_okay=False, path_type=Path), default=None, help="Scratch databases.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="perf.json/.md/.png here.")
@click.option(
    "--contended/--no-contended", default=True, show_default=True,
    help="Also time each size's searches while another process keeps one core busy.",
)  # fmt: skip
@click.option(
    "--db-backend", "db_backend", type=click.Choice(["sqlite", "postgres"]), default="sqlite", show_default=True,
    help="postgres: ingest, search and add on SQLite and on PostgreSQL, one run, side by side.",
)  # fmt: skip
@click.option("--pg-url", default=None, help="With --db-backend postgres: a server to use (default: a temporary one).")
@click.option("--adds", default=100, show_default=True, type=click.IntRange(min=10), help="With postgres: adds timed.")
@click.option(
    "--parallel-adds", default=100, show_default=True, type=click.IntRange(min=0),
    help="With postgres: messages each of 1 and of 4 processes add at once to an empty store (0: skip).",
)  # fmt: skip
@click.option(
    "--pg-setting", "pg_settings", multiple=True, metavar="NAME=VALUE",
    help="With postgres: a server setting every PostgreSQL connection uses (repeat), e.g. synchronous_commit=off.",
)  # fmt: skip
def perf_command(
    data: Path,
    sizes: str,
    embed_sizes: str | None,
    embedder: str,
    queries: int,
    workdir: Path | None,
    out: Path | None,
    contended: bool,
    db_backend: str,
    pg_url: str | None,
    adds: int,
    parallel_adds: int,
    pg_settings: tuple[str, ...],
) -> None:
    """Ingest throughput, search latency, peak RSS and database size at growing sizes (LoCoMo replayed); with
    --db-backend postgres, ingest, search and add latency on both stores side by side."""
    import tempfile

    from sodamem.bench.perf import run_perf
    from sodamem.bench.perf_report import plot_perf, render_perf_markdown

    if db_backend == "postgres":
        _perf_backends(
            data, parse_ks(sizes), embed_sizes, embedder, queries, (adds, parallel_adds), workdir, out, pg_url,
            _settings(pg_settings),
        )  # fmt: skip
        return
    with tempfile.TemporaryDirectory() as scratch:
        report = run_perf(
            data,
            parse_ks(sizes),
            None if embedder == "none" else embedder,
            queries,
            workdir=workdir or Path(scratch),
            embed_sizes=parse_ks(embed_sizes) if embed_sizes else None,
            progress=lambda message: click.echo(message, err=True),
            contended=contended,
        )
    markdown = render_perf_markdown(report)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "perf.json").write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
        (out / "perf.md").write_text(markdown, encoding="utf-8")
        plot_perf(report, out / "perf.png")
    click.echo(markdown, nl=False)


def _perf_backends(
    data: Path,
    sizes: tuple[int, ...],
    embed_sizes: str | None,
    embedder: str,
    queries: int,
    adds: tuple[int, int],
    workdir: Path | None,
    out: Path | None,
    pg_url: str | None,
    pg_settings: dict[str, str],
) -> None:
    import tempfile

    from sodamem.bench.perf_backends import render_backends_markdown, run_perf_backends
    from sodamem.bench.pg_adds import DURABILITY, flush_probe
    from sodamem.store.postgres.scratch import scratch_databases, server_settings, with_settings

    model = open_embedder(embedder, default_cache())
    with tempfile.TemporaryDirectory() as scratch, postgres_server(pg_url) as server_url_of:

        def url_of(name: str) -> str:
            return with_settings(server_url_of(name), pg_settings)

        durability = server_settings(url_of("postgres"), DURABILITY)
        folder = workdir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        flush_before = flush_probe(folder)
        report = run_perf_backends(
            data,
            sizes,
            scratch_databases(url_of, "sodamem_perf"),
            workdir=folder,
            embedder=model,
            spec=None if embedder == "none" else embedder,
            embed_sizes=parse_ks(embed_sizes) if embed_sizes else sizes,
            queries=queries,
            adds=adds[0],
            parallel=adds[1],
            progress=lambda message: click.echo(message, err=True),
        )
        report.machine["flush_ms"] = f"{flush_before:.2f} before, {flush_probe(folder):.2f} after"
    report.postgres_settings = durability
    markdown = render_backends_markdown(report)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "perf-backends.json").write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
        (out / "perf-backends.md").write_text(markdown, encoding="utf-8")
    click.echo(markdown, nl=False)


def _settings(items: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` options as a dict (a usage error otherwise)."""
    settings: dict[str, str] = {}
    for item in items:
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--pg-setting")
        settings[name.strip()] = value.strip()
    return settings


@click.command("pg-adds")
@click.option("--data", "data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--pg-url", required=True, help="A PostgreSQL server (any database's URL on it).")
@click.option(
    "--template", default="sodamem_adds_base", show_default=True,
    help="The ingested PostgreSQL database each run copies (--prepare makes it).",
)  # fmt: skip
@click.option(
    "--sqlite-base", type=click.Path(dir_okay=False, path_type=Path), required=True,
    help="The ingested SQLite file each run copies (--prepare makes it).",
)  # fmt: skip
@click.option("--size", default=100_000, show_default=True, type=click.IntRange(min=100), help="Corpus size in turns.")
@click.option("--prepare", is_flag=True, help="Ingest the corpus into the bases that are missing first.")
@click.option(
    "--variant", "variants", multiple=True, metavar="LABEL[:NAME=VALUE,...]",
    help="A PostgreSQL run with these server settings (repeat). Default: 'default' and"
    " 'async:synchronous_commit=off'.",
)  # fmt: skip
@click.option(
    "--sqlite-variant", "sqlite_variants", multiple=True, metavar="LABEL:synchronous=LEVEL",
    help="A further SQLite run opened with this synchronous level (repeat). Default: 'full:synchronous=FULL' (each"
    " commit syncs the WAL, as PostgreSQL's default does). The plain 'sqlite' run (NORMAL) always runs.",
)  # fmt: skip
@click.option("--rounds", default=5, show_default=True, type=click.IntRange(min=1))
@click.option("--adds", default=300, show_default=True, type=click.IntRange(min=10), help="Adds timed per run.")
@click.option("--start", default=100, show_default=True, type=click.IntRange(min=0), help="First message of the run.")
@click.option(
    "--workdir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="The SQLite copies and the disk flush probe (on the server's disk, for a local server) go here.",
)  # fmt: skip
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
def pg_adds_command(
    data: Path,
    pg_url: str,
    template: str,
    sqlite_base: Path,
    size: int,
    prepare: bool,
    variants: tuple[str, ...],
    sqlite_variants: tuple[str, ...],
    rounds: int,
    adds: int,
    start: int,
    workdir: Path | None,
    json_out: Path | None,
) -> None:
    """The add at a large size: SQLite against PostgreSQL variants (server settings), interleaved rounds on fresh
    copies of settled databases (docs/bench.md)."""
    import tempfile

    from sodamem.bench.pg_adds import (
        parse_sqlite_variant,
        parse_variant,
        prepare_bases,
        render_markdown,
        run_pg_adds,
    )
    from sodamem.store.postgres.scratch import database_exists, server_at

    try:
        parsed = [parse_variant(v) for v in variants or ("default", "async:synchronous_commit=off")]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--variant") from None
    try:
        parsed = [parse_sqlite_variant(v) for v in sqlite_variants or ("full:synchronous=FULL",)] + parsed
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--sqlite-variant") from None
    labels = [variant.label for variant in parsed]
    if len(set(labels)) < len(labels):
        raise click.BadParameter(f"each variant needs its own label: {', '.join(labels)}", param_hint="--variant")
    url_of = server_at(pg_url)

    def say(message: str) -> None:
        click.echo(message, err=True)

    if prepare:
        prepare_bases(data, size, url_of, template, sqlite_base, say)
    if not sqlite_base.exists() or not database_exists(url_of, template):
        raise click.UsageError(f"missing {sqlite_base} or the database {template}: run with --prepare first")
    with tempfile.TemporaryDirectory() as scratch:
        report = run_pg_adds(
            data, url_of, template=template, sqlite_base=sqlite_base, variants=parsed, rounds=rounds, adds=adds,
            start=start, size=size, workdir=workdir or Path(scratch), progress=say,
        )  # fmt: skip
    if json_out is not None:
        json_out.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
    click.echo(render_markdown(report), nl=False)
