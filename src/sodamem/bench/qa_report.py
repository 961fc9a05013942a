"""Reports of a QA run: the summary (accuracy per category, tokens and $ per question, answer and judge apart),
its markdown, its JSON, and the cost–accuracy plot that places the run among published figures.

The published points are figures their authors reported (quoted in issue #6), NOT reproduced here; their
benchmarks, judges and answer models differ from run to run, and most give no cost. The plot labels them so.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sodamem.bench.metrics import TOKENIZER_NAME, mean
from sodamem.bench.qa_types import QAResult, QARun


@dataclass(frozen=True, slots=True)
class PublishedPoint:
    label: str
    accuracy: float  # percent
    usd_per_question: float | None  # None: the source gives no cost


PUBLISHED: tuple[PublishedPoint, ...] = (
    PublishedPoint("reference design (flash model)", 92.8, 0.00161),
    PublishedPoint("Mem0", 94.4, None),
    PublishedPoint("agentmemory V4", 96.2, None),
    PublishedPoint("Zep (gpt-4o)", 71.2, None),
)
SCORE_LABELS = {"f1": "F1", "match": "contained match"}
_ZERO_COST_X = 1e-5  # where a run that spent nothing is drawn on the log axis


def _stats(values: Iterable[float]) -> dict[str, float]:
    items = list(values)
    return {"mean": mean(items), "median": float(statistics.median(items)) if items else 0.0}


def _group(results: Sequence[QAResult]) -> dict[str, Any]:
    judged = [r for r in results if r.judge_correct is not None]
    baseline = [r.baseline_score for r in results if r.baseline_score is not None]
    return {
        "questions": len(results),
        "score": mean(r.score for r in results),
        "judged": len(judged),
        "judge_accuracy": mean(float(bool(r.judge_correct)) for r in judged) if judged else None,
        "baseline_score": mean(baseline) if baseline else None,
    }


def _asked_judge(r: QAResult) -> bool:
    return r.judge_correct is not None or bool(r.judge_error)


def summarise_qa(run: QARun) -> dict[str, Any]:
    results = run.results
    categories = {
        key: {"name": run.category_names.get(key, key), **_group(rs)} for key, rs in run.by_category().items()
    }
    overall_keys = run.overall_categories or tuple(categories)
    in_overall = [categories[k] for k in overall_keys if k in categories]
    judged = [r for r in results if _asked_judge(r)]
    abstention = [r for r in results if r.abstention_question]
    return {
        "dataset": run.dataset,
        "answerer": run.answerer,
        "model": run.model,
        "judge": run.judge,
        "endpoint": run.endpoint,
        "embedder": run.embedder,
        "score_name": run.score_name,
        "questions": len(results),
        "overall": _group(run.overall_results()),
        "overall_categories": list(run.overall_categories) if run.overall_categories is not None else None,
        "task_averaged": {
            "score": mean(c["score"] for c in in_overall),
            "judge_accuracy": mean(c["judge_accuracy"] for c in in_overall) if judged else None,
        },
        "categories": categories,
        "abstention": _group(abstention) if abstention else None,
        "abstention_rate": mean(float(r.abstained) for r in results),
        "answer_tokens": {
            "input": _stats(r.input_tokens for r in results),
            "output": _stats(r.output_tokens for r in results),
            "total": _stats(r.answer_tokens for r in results),
        },
        "judge_tokens": {
            "input": _stats(r.judge_input_tokens for r in judged),
            "output": _stats(r.judge_output_tokens for r in judged),
            "total": _stats(r.judge_tokens for r in judged),
        }
        if judged
        else None,
        "usd_per_question": {
            "answer": _stats(r.usd for r in results),
            "judge": _stats(r.judge_usd for r in judged) if judged else None,
        },
        "evidence_tokens": _stats(r.evidence_tokens for r in results),
        "llm_steps": _stats(r.steps for r in results),
        "fallbacks": sum(any(f.startswith("fallback:") for f in r.flags) for r in results),
        "citations": _citation_checks(results),
        "judge_errors": sum(bool(r.judge_error) for r in results),
        "seconds": run.seconds,
        "seconds_per_question": run.seconds / len(results) if results else 0.0,
        "tokenizer_of_evidence": TOKENIZER_NAME,
    }


def headline(summary: dict[str, Any]) -> tuple[float, str]:
    """The run's accuracy in percent, and what it is: judge accuracy when judged, else the offline score."""
    judge_accuracy = summary["overall"]["judge_accuracy"]
    if judge_accuracy is not None:
        return 100 * judge_accuracy, f"judge accuracy ({summary['judge']})"
    name = SCORE_LABELS.get(summary["score_name"], summary["score_name"])
    return 100 * summary["overall"]["score"], f"{name}, not judge accuracy"


def run_to_dict(run: QARun) -> dict[str, Any]:
    return {
        "dataset": run.dataset,
        "answerer": run.answerer,
        "embedder": run.embedder,
        "summary": summarise_qa(run),
        "published": [asdict(p) for p in PUBLISHED],
        "notes": run.notes,
        "results": [asdict(r) for r in run.results],
    }


def _cell(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def render_qa_markdown(run: QARun) -> str:
    s = summarise_qa(run)
    score = SCORE_LABELS.get(run.score_name, run.score_name)
    judged = s["judge_tokens"] is not None
    baseline = s["overall"]["baseline_score"] is not None
    header = [
        "category",
        "questions",
        score,
        *(["judge accuracy"] if judged else []),
        *([f"offline {score}"] if baseline else []),
    ]
    lines = [
        f"## {run.dataset} QA — {run.answerer} answerer (model: {run.model or 'none'}; judge: {run.judge or 'none'};"
        f" embedder: {run.embedder or 'none'})",
        "",
        f"LLM endpoint: {run.endpoint}",
        *_sample_lines(run.notes),
        "",
        "| " + " | ".join(header) + " |",
        "|---|" + "---:|" * (len(header) - 1),
    ]

    def row(label: str, group: dict[str, Any]) -> str:
        cells = [label, str(group["questions"]), _cell(group["score"])]
        cells += [_cell(group["judge_accuracy"])] if judged else []
        cells += [_cell(group["baseline_score"])] if baseline else []
        return "| " + " | ".join(cells) + " |"

    for key, group in s["categories"].items():
        name = group["name"] if group["name"] == key else f"{key} {group['name']}"
        lines.append(row(name, group))
    if s["abstention"] is not None and run.overall_categories is None:
        lines.append(row("abstention (_abs)", s["abstention"]))
    scope = (
        "all" if run.overall_categories is None else "-".join((run.overall_categories[0], run.overall_categories[-1]))
    )
    lines.append(row(f"**overall ({scope})**", s["overall"]))
    averaged = s["task_averaged"]
    lines.append(
        f"| task-averaged | — | {_cell(averaged['score'])} |"
        + (f" {_cell(averaged['judge_accuracy'])} |" if judged else "")
        + (" — |" if baseline else "")
    )
    tokens = s["answer_tokens"]
    if run.model is None:
        lines += ["", "- answering used no LLM: 0 tokens and $0 per question"]
    else:
        lines += [
            "",
            f"- answer tokens per question (planner + reader, as the endpoint counts them): mean "
            f"{tokens['total']['mean']:.0f} (input {tokens['input']['mean']:.0f}, output "
            f"{tokens['output']['mean']:.0f}), median {tokens['total']['median']:.0f} (input "
            f"{tokens['input']['median']:.0f}, output {tokens['output']['median']:.0f}); LLM calls per question: "
            f"mean {s['llm_steps']['mean']:.2f}",
            f"- $ per question (answer): mean {s['usd_per_question']['answer']['mean']:.5f},"
            f" median {s['usd_per_question']['answer']['median']:.5f}",
        ]
    if judged:
        j = s["judge_tokens"]
        lines.append(
            f"- judge, counted apart: tokens per question mean {j['total']['mean']:.0f}"
            f" (input {j['input']['mean']:.0f}, output {j['output']['mean']:.0f}), median {j['total']['median']:.0f};"
            f" $ per question mean {s['usd_per_question']['judge']['mean']:.5f}; errors {s['judge_errors']}"
        )
    for name, tally in (run.notes.get("llm_calls") or {}).items():
        for prompt, t in tally.items():
            per = max(t["requests"], 1)
            lines.append(
                f"- {name} calls `{prompt}`: {t['requests']} requests, mean {t['prompt_tokens'] / per:.0f} input"
                f" / {t['completion_tokens'] / per:.0f} output tokens per request, {t['errors']} failed"
            )
    evidence = s["evidence_tokens"]
    lines += [
        f"- fallbacks to the offline reader: {s['fallbacks']}; abstention rate {s['abstention_rate']:.1%}",
        _citation_line(s["citations"]),
        f"- evidence read per question ({s['tokenizer_of_evidence']}): mean {evidence['mean']:.0f},"
        f" median {evidence['median']:.0f}",
        f"- run time: {s['seconds']:.1f} s for {s['questions']} questions ({s['seconds_per_question']:.2f} s each)",
        "",
    ]
    return "\n".join(lines)


def plot_cost_accuracy(runs: Sequence[QARun], path: str | Path, *, title: str | None = None) -> None:
    """A PNG: $ per question (log) against accuracy, the runs among the published points (labelled published)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 5.5))
    lines_only = sorted((p for p in PUBLISHED if p.usd_per_question is None), key=lambda p: p.accuracy)
    for n, point in enumerate(lines_only):
        ax.axhline(point.accuracy, color="grey", linestyle=":", linewidth=1)
        crowded = n + 1 < len(lines_only) and lines_only[n + 1].accuracy - point.accuracy < 4
        ax.annotate(  # a label crowded by the line above it goes under its own line
            f"published: {point.label} {point.accuracy:.1f}% ($ not reported)",
            (1.2e-5, point.accuracy),
            xytext=(0, -3 if crowded else 3),
            textcoords="offset points",
            va="top" if crowded else "bottom",
            fontsize=7,
            color="dimgrey",
        )
    for point in PUBLISHED:
        if point.usd_per_question is not None:
            ax.scatter([point.usd_per_question], [point.accuracy], marker="s", color="grey")
            ax.annotate(
                f"published: {point.label}\n{point.accuracy:.1f}%, ${point.usd_per_question:.5f}",
                (point.usd_per_question, point.accuracy),
                xytext=(6, -4),
                textcoords="offset points",
                va="top",
                fontsize=7,
                color="dimgrey",
            )
    for run in runs:
        summary = summarise_qa(run)
        accuracy, what = headline(summary)
        usd = summary["usd_per_question"]["answer"]["mean"]
        x = usd if usd > 0 else _ZERO_COST_X
        cost = f"${usd:.5f}" if usd > 0 else "$0 (no priced LLM; drawn at the left edge)"
        label = f"this run: {run.answerer} ({run.model or 'no LLM'}): {accuracy:.1f}% {what}, {cost}"
        ax.scatter([x], [accuracy], marker="o", s=60, zorder=3, label=label)
    if runs:
        ax.legend(loc="lower right", fontsize=7)
    ax.set_xscale("log")
    ax.set_xlim(_ZERO_COST_X / 2, 0.1)
    ax.set_ylim(0, 100)
    ax.set_xlabel("$ per question (answering; judge not included)")
    ax.set_ylabel("accuracy (%)")
    ax.set_title(title or f"{runs[0].dataset if runs else ''} QA: cost and accuracy")
    ax.grid(alpha=0.3)
    fig.text(
        0.01,
        0.01,
        "published: figures as reported by their authors, not reproduced here; benchmarks, judges and models differ",
        fontsize=7,
        color="dimgrey",
    )
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _sample_lines(notes: dict[str, Any]) -> list[str]:
    """What the LLM read and which questions were asked, when that is not the whole split and the memory's search."""
    parts = []
    if notes.get("evidence", "memory") != "memory":
        parts.append(f"evidence: flat {notes['evidence']} (the same LLM loop, another search behind its packs)")
    if notes.get("sample"):
        parts.append(f"questions: a fixed sample of {notes['sample']}, round-robin over categories (--sample)")
    return ["", *[f"- {p}" for p in parts]] if parts else []


# answers the offline reader gave in the LLM loop's place
_NOT_ITS_OWN = ("fallback:", "offline_state:", "offline_relation")


def _citation_checks(results: list[QAResult]) -> dict[str, int]:
    """Citation validity of the answers the answerer itself grounded (no fallback, no abstention, none taken from
    the offline reader): how many cite, their citations, how many quotes re-read from the store, and the ids it cited
    that its evidence never had."""
    own = [r for r in results if not r.abstained and not any(f.startswith(_NOT_ITS_OWN) for f in r.flags)]
    return {
        "answers": len(own),
        "cited": sum(r.citations for r in own),
        "reread": sum(r.citations_reread for r in own),
        "unknown_ids": sum(f.startswith("unknown_citation:") for r in own for f in r.flags),
    }


def _citation_line(checks: dict[str, int]) -> str:
    return (
        f"- citations of the {checks['answers']} answers grounded by the answerer itself: {checks['cited']},"
        f" {checks['reread']} re-read from the store; {checks['unknown_ids']} ids cited that the evidence never had"
    )
