"""``sodamem bench qa-table``: several QA runs (their ``--json`` files) side by side, and F1 against tokens.

One row per run: the model, the evidence source and budget, LoCoMo F1 on categories 1-4 and per category, the
adversarial category's abstention, tokens and seconds per question, fallbacks, citation validity, and what the same
token counts would cost on a flash model at list prices (a local model's tokens are priced $0; the flash column
says what a hosted small model would have charged for the same traffic, counted with the local tokenizer).
``table_rows`` is pure; the command reads the files and prints or plots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sodamem.llm.prices import cost_usd

SCORED = ("1", "2", "3", "4")
ADVERSARIAL = "5"
DEFAULT_FLASH = "gemini-2.5-flash"


@dataclass(frozen=True, slots=True)
class TableRow:
    label: str
    series: str  # the label without the budget: runs that differ only in budget form one line of the plot
    budget: int | None
    questions: int
    f1: float  # categories 1-4
    by_category: dict[str, float | None]
    adversarial: float | None  # category 5's score: 1 when the answerer abstained
    offline_f1: float | None  # the offline reader on the same questions, when the run scored it
    tokens_in: float
    tokens_out: float
    seconds: float
    fallbacks: int
    cited: int
    reread: int
    unknown_ids: int
    flash_usd: float


def _identity(run: Mapping[str, Any]) -> tuple[str, str, str, str] | None:
    """(model, evidence source, reader prompt, planner steps) of an LLM run; None for the offline reader."""
    if run["answerer"] == "offline":
        return None
    notes = run.get("notes", {})
    model = run["summary"].get("model") or run["answerer"]
    # runs from before ``--reader-prompt auto`` recorded the choice, which was ``full`` unless asked otherwise
    prompt = f"{notes.get('reader_prompt') or 'full'} prompt"
    steps = f"{notes.get('max_steps', 0)} planner steps"
    evidence = f"{notes.get('evidence', 'memory')} evidence"
    if notes.get("focus_tokens"):  # packs of turn lines cut to their matching sentences (``retrieve.focus``)
        evidence += f" (lines cut to {notes['focus_tokens']} tok)"
    return model, evidence, prompt, steps


def run_label(run: Mapping[str, Any]) -> str:
    """``model · evidence · prompt · budget · steps`` of a run's JSON (the offline reader: ``offline · budget``)."""
    notes = run.get("notes", {})
    budget = f"{notes.get('budget_tokens')} tok"
    if notes.get("list_budget_tokens"):  # a question gathering several items read a pack of its own size
        budget += f" (lists {notes['list_budget_tokens']})"
    identity = _identity(run)
    if identity is None:
        return f"offline reader · {budget}"
    model, evidence, prompt, steps = identity
    return f"{model} · {evidence} · {prompt} · {budget} · {steps}"


def run_series(run: Mapping[str, Any]) -> str:
    """``model · evidence · prompt · steps``: what a run is, its budget aside."""
    identity = _identity(run)
    return "offline reader" if identity is None else " · ".join(identity)


def table_rows(runs: Sequence[Mapping[str, Any]], flash_model: str = DEFAULT_FLASH) -> list[TableRow]:
    rows = []
    for run in runs:
        summary = run["summary"]
        categories = summary["categories"]
        tokens = summary["answer_tokens"]
        tokens_in, tokens_out = tokens["input"]["mean"], tokens["output"]["mean"]
        checks = summary.get("citations") or {"cited": 0, "reread": 0, "unknown_ids": 0}
        adversarial = categories.get(ADVERSARIAL)
        rows.append(
            TableRow(
                label=run_label(run),
                series=run_series(run),
                budget=run.get("notes", {}).get("budget_tokens"),
                questions=summary["questions"],
                f1=summary["overall"]["score"],
                by_category={c: categories[c]["score"] if c in categories else None for c in SCORED},
                adversarial=adversarial["score"] if adversarial else None,
                offline_f1=summary["overall"].get("baseline_score"),
                tokens_in=tokens_in,
                tokens_out=tokens_out,
                seconds=summary["seconds_per_question"],
                fallbacks=summary["fallbacks"],
                cited=checks["cited"],
                reread=checks["reread"],
                unknown_ids=checks["unknown_ids"],
                flash_usd=cost_usd(flash_model, round(tokens_in), round(tokens_out)).usd,
            )
        )
    return rows


def _f(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def render_table(rows: Sequence[TableRow], flash_model: str = DEFAULT_FLASH) -> str:
    header = [
        "run", "questions", "F1 (1-4)", *(f"F1 cat {c}" for c in SCORED), "adversarial abstained", "offline F1",
        "tokens/q (in/out)", "s/q", "fallbacks", "citations re-read", "unknown ids", f"$/q on {flash_model}",
    ]  # fmt: skip
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    for r in rows:
        cells = [
            r.label, str(r.questions), _f(r.f1), *(_f(r.by_category[c]) for c in SCORED), _f(r.adversarial),
            _f(r.offline_f1), f"{r.tokens_in:.0f} / {r.tokens_out:.0f}", f"{r.seconds:.1f}",
            f"{r.fallbacks} ({r.fallbacks / max(r.questions, 1):.0%})", f"{r.reread} of {r.cited}", str(r.unknown_ids),
            f"{r.flash_usd:.5f}",
        ]  # fmt: skip
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class PlotLine:
    series: str
    points: tuple[tuple[float, float, int | None], ...]  # (tokens per question, F1 1-4, budget), fewest tokens first


def plot_lines(rows: Sequence[TableRow]) -> tuple[list[PlotLine], float | None]:
    """The LLM runs grouped into one line per series, and the offline reader's F1 when every run that scored it on
    its questions agrees on it (runs on different questions have no one offline line)."""
    grouped: dict[str, list[tuple[float, float, int | None]]] = {}
    for row in rows:
        if row.tokens_in + row.tokens_out > 0:
            grouped.setdefault(row.series, []).append((row.tokens_in + row.tokens_out, row.f1, row.budget))
    lines = [PlotLine(series, tuple(sorted(points))) for series, points in grouped.items()]
    offline = {round(r.f1, 6) for r in rows if r.tokens_in + r.tokens_out == 0}
    offline |= {round(r.offline_f1, 6) for r in rows if r.offline_f1 is not None}
    return lines, (offline.pop() if len(offline) == 1 else None)


def plot_f1_tokens(rows: Sequence[TableRow], path: str | Path) -> None:
    """A PNG: F1 on categories 1-4 against LLM tokens per question, one line per model and evidence through its
    budgets (each point labelled with its budget), the offline reader as a dashed line, F1 from 0."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines, offline = plot_lines(rows)
    fig, ax = plt.subplots(figsize=(8, 5))
    top = max([p[1] for line in lines for p in line.points] + [offline or 0.0, 0.1])
    for line in lines:
        xs, ys = [p[0] for p in line.points], [p[1] for p in line.points]
        ax.plot(xs, ys, marker="o", label=line.series)
        for x, y, budget in line.points:
            if budget is not None:
                ax.annotate(f"{budget} tok", (x, y), xytext=(4, 4), textcoords="offset points", fontsize=7)
    if offline is not None:
        ax.axhline(offline, linestyle="--", color="grey", label=f"offline reader, same questions ({offline:.3f})")
    ax.set_xscale("log")
    ax.set_ylim(0, top * 1.25)
    ax.set_xlabel("LLM tokens per question (input + output, log scale)")
    ax.set_ylabel("LoCoMo F1, categories 1-4")
    ax.set_title("Answers against tokens per question")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
