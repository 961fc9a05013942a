"""``sodamem bench packs``: the evidence packs' gold recall (``bench/packs.py``), a thin click command."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import click

from sodamem.bench.cli_common import default_cache, open_embedder
from sodamem.bench.packs import PACK_BUDGETS, PACK_SYSTEMS, render_packs_markdown, run_pack_recall
from sodamem.bench.qa_sample import sample_questions
from sodamem.embed import DEFAULT_EMBEDDER, EMBEDDER_CHOICES


def _budgets(value: str) -> tuple[int, ...]:
    try:
        budgets = tuple(sorted({int(v) for v in value.split(",") if v.strip()}))
    except ValueError:
        raise click.BadParameter(f"expected comma-separated token counts, got {value!r}") from None
    if not budgets or budgets[0] < 1:
        raise click.BadParameter("budgets must be positive token counts")
    return budgets


@click.command("packs")
@click.option(
    "--data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True, help="LoCoMo JSON."
)
@click.option("--budgets", default=",".join(map(str, PACK_BUDGETS)), show_default=True, help="Comma-separated tokens.")
@click.option(
    "--system", "systems", multiple=True, type=click.Choice(list(PACK_SYSTEMS)), help="Repeat (default both)."
)
@click.option("--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES, "none"]), show_default=True)
@click.option("--cache", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Embedding cache.")
@click.option("--no-cache", is_flag=True, help="Embed everything afresh.")
@click.option("--sample", type=click.IntRange(min=1), default=None, help="Only the QA bench's sample of N questions.")
@click.option("--sample-skip", type=click.IntRange(min=0), default=0, show_default=True, help="With --sample.")
@click.option(
    "--focus-tokens",
    type=click.IntRange(min=1),
    default=None,
    help="Cut turn lines longer than N tokens to their sentences that match the question (retrieve/focus.py).",
)
@click.option("--scored-only/--with-adversarial", default=True, show_default=True, help="Categories 1-4 only.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
def packs_command(
    data: Path,
    budgets: str,
    systems: tuple[str, ...],
    embedder: str,
    cache: Path | None,
    no_cache: bool,
    sample: int | None,
    sample_skip: int,
    focus_tokens: int | None,
    scored_only: bool,
    json_out: Path | None,
) -> None:
    """LoCoMo: the first evidence pack an LLM reader gets, from the memory's search and from flat BM25, at each
    budget: the share of each question's gold evidence turns in it and whether it holds the gold answer. No LLM;
    --sample/--sample-skip pick the same questions as `bench locomo --qa`."""
    from sodamem.bench.locomo import load_locomo

    if sample_skip and sample is None:
        raise click.UsageError("--sample-skip needs --sample")
    chosen = _budgets(budgets)
    units, _notes = load_locomo(data)
    if sample is not None:  # sampled over every category, as the QA bench samples
        try:
            units = sample_questions(units, sample, skip=sample_skip)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--sample-skip") from None
    if scored_only:
        units = [replace(u, questions=[q for q in u.questions if q.scored]) for u in units]
    model = open_embedder(embedder, None if no_cache or embedder == "fake" else (cache or default_cache()))
    total = sum(len(u.questions) for u in units)
    with click.progressbar(length=total, label="packs", file=sys.stderr, hidden=not sys.stderr.isatty()) as bar:
        run = run_pack_recall(
            units,
            dataset=data.name,
            embedder=model,
            systems=systems or tuple(PACK_SYSTEMS),
            budgets=chosen,
            focus_tokens=focus_tokens,
            progress=lambda done, _total: bar.update(done - bar.pos),
        )
    click.echo(render_packs_markdown(run, f"LoCoMo packs ({data.name})"))
    if json_out is not None:
        json_out.write_text(json.dumps(run.to_json()), "utf-8")
