"""``sodamem bench histories``: small assistant histories with keyword-checked questions (``bench/histories.py``),
a thin click command. It prints counts per question kind only, never a question or an answer."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from sodamem.bench.histories import correct_by_qid, load_histories, per_kind, results_json, run_histories, wins
from sodamem.embed import DEFAULT_EMBEDDER, EMBEDDER_CHOICES


@click.command("histories")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--answerer", type=click.Choice(["offline", "llm"]), default="offline", show_default=True)
@click.option("--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES, "none"]), show_default=True)
@click.option("--budget", type=click.IntRange(min=1), default=500, show_default=True, help="LLM evidence tokens.")
@click.option("--steps", type=click.IntRange(min=0), default=0, show_default=True, help="LLM planner steps.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option(
    "--against",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="An earlier run's --json: questions won and lost, per kind.",
)
def histories_command(
    path: Path, answerer: str, embedder: str, budget: int, steps: int, json_out: Path | None, against: Path | None
) -> None:
    """Each history of PATH told to a fresh memory, its questions asked, and right answers counted per kind."""
    histories = load_histories(path)
    before = correct_by_qid(against) if against is not None else None
    total = sum(len(h.questions) for h in histories)
    with click.progressbar(length=total, label="questions", file=sys.stderr, hidden=not sys.stderr.isatty()) as bar:
        results = run_histories(
            histories,
            embedder=None if embedder == "none" else embedder,
            offline=answerer == "offline",
            budget_tokens=budget,
            max_steps=steps,
            progress=bar.update,
        )
    click.echo("| kind | right | asked |\n|---|---:|---:|")
    for kind, (right, asked) in per_kind(results).items():
        click.echo(f"| {kind} | {right} | {asked} |")
    if against is not None and before is not None:
        click.echo(f"\nagainst {against.name}: won / lost")
        for kind, (won, lost) in wins(before, results).items():
            click.echo(f"  {kind}: {won} / {lost}")
    if json_out is not None:
        notes = {"file": path.name, "answerer": answerer, "embedder": embedder, "budget": budget, "steps": steps}
        json_out.write_text(results_json(results, notes), "utf-8")
