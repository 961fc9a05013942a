"""Aggregate a BenchRun into metric tables: per system, overall and per category; markdown, JSON and a plot."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sodamem.bench.metrics import TOKENIZER_NAME, mean, ndcg_any, recall_all, recall_any, session_ranking
from sodamem.bench.runner import BenchRun, QuestionResult

SessionRule = Literal["topk-turns", "widen"]
"""How a turn ranking is scored at session level: LoCoMo's (sessions of the top-k turns) or LongMemEval's
(widen k until k distinct sessions are covered)."""

OVERALL = "overall"


@dataclass(slots=True)
class GroupMetrics:
    questions: int = 0  # scored for retrieval (with at least one reachable relevant id)
    recall_any: dict[int, float] = field(default_factory=dict)
    recall_all: dict[int, float] = field(default_factory=dict)
    ndcg_any: dict[int, float] = field(default_factory=dict)
    session_recall_all: dict[int, float] = field(default_factory=dict)
    session_recall_any: dict[int, float] = field(default_factory=dict)
    tokens: dict[int, float] = field(default_factory=dict)
    containment: dict[int, float] = field(default_factory=dict)
    containment_questions: int = 0
    latency_p50_ms: float = 0.0
    latency_p95_ms: float = 0.0


def summarise(
    run: BenchRun, *, session_rule: SessionRule = "topk-turns", scored: bool = True
) -> dict[str, dict[str, GroupMetrics]]:
    """``system -> group -> metrics``; groups are ``overall`` and each category.

    ``scored=False`` summarises the questions kept out of the main figures (LoCoMo's adversarial category).
    """
    selected = [r for r in run.results if r.question.scored == scored]
    groups: dict[str, list[QuestionResult]] = {OVERALL: selected}
    for result in selected:
        groups.setdefault(result.question.category, []).append(result)
    return {
        system: {name: _group(members, system, run.ks, run.budgets, session_rule) for name, members in groups.items()}
        for system in run.systems
    }


def _group(
    results: Sequence[QuestionResult], system: str, ks: Sequence[int], budgets: Sequence[int], rule: SessionRule
) -> GroupMetrics:
    scored = [r for r in results if r.question.relevant_turns]
    metrics = GroupMetrics(questions=len(scored))
    for k in ks:
        metrics.recall_any[k] = mean(recall_any(r.ranked[system], r.question.relevant_turns, k) for r in scored)
        metrics.recall_all[k] = mean(recall_all(r.ranked[system], r.question.relevant_turns, k) for r in scored)
        metrics.ndcg_any[k] = mean(ndcg_any(r.ranked[system], r.question.relevant_turns, k) for r in scored)
        sessions = [(_session_top(r, system, k, rule), r.question.relevant_sessions) for r in scored]
        metrics.session_recall_all[k] = mean(float(set(rel) <= set(top)) for top, rel in sessions if rel)
        metrics.session_recall_any[k] = mean(float(bool(set(rel) & set(top))) for top, rel in sessions if rel)
        metrics.tokens[k] = mean(float(r.tokens_at_k[system][k]) for r in results)
    answered = [r for r in results if system in r.contained]
    metrics.containment_questions = len(answered)
    for budget in budgets:
        metrics.containment[budget] = mean(float(r.contained[system][budget]) for r in answered)
    latencies = sorted(r.latency_ms[system] for r in results)
    if latencies:
        metrics.latency_p50_ms = statistics.median(latencies)
        metrics.latency_p95_ms = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    return metrics


def _session_top(result: QuestionResult, system: str, k: int, rule: SessionRule) -> list[str]:
    ids, sessions = result.ranked[system], result.ranked_sessions[system]
    if rule == "topk-turns":
        return list(dict.fromkeys(sessions[:k]))
    session_of = dict(zip(ids, sessions, strict=True))
    return session_ranking(ids, session_of, k)


def render_markdown(
    run: BenchRun,
    summary: dict[str, dict[str, GroupMetrics]],
    title: str,
    unscored: dict[str, dict[str, GroupMetrics]] | None = None,
) -> str:
    ks, budgets = run.ks, run.budgets
    k_main = 10 if 10 in ks else ks[-1]
    lines = [
        f"## {title}",
        "",
        f"{len(run.results)} questions; embedder: {run.embedder or 'none'}; evidence tokens counted with "
        f"`{TOKENIZER_NAME}`; {run.seconds:.0f} s. Latencies exclude the question's embedding"
        f"{_embedding_note(run)}.",
        "",
    ]
    header = (
        ["system", "n"]
        + [f"R_any@{k}" for k in ks]
        + [f"R_all@{k}" for k in ks]
        + [f"nDCG@{k_main}", f"S_R_all@{k_main}", f"tokens@{k_main}"]
        + [f"contain@{b}" for b in budgets]
        + ["p50 ms", "p95 ms"]
    )
    lines += _table_head(header)
    for system, groups in summary.items():
        m = groups[OVERALL]
        lines.append(
            "| "
            + " | ".join(
                [system, str(m.questions)]
                + [f"{m.recall_any[k]:.3f}" for k in ks]
                + [f"{m.recall_all[k]:.3f}" for k in ks]
                + [f"{m.ndcg_any[k_main]:.3f}", f"{m.session_recall_all[k_main]:.3f}", f"{m.tokens[k_main]:.0f}"]
                + [f"{m.containment[b]:.3f}" for b in budgets]
                + [f"{m.latency_p50_ms:.1f}", f"{m.latency_p95_ms:.1f}"]
            )
            + " |"
        )
    categories = sorted({g for groups in summary.values() for g in groups if g != OVERALL})
    if categories:
        lines += ["", f"Per category: R_any@{k_main} / R_all@{k_main}", ""]
        lines += _table_head(["system", *categories])
        for system, groups in summary.items():
            cells = [
                f"{groups[c].recall_any[k_main]:.3f} / {groups[c].recall_all[k_main]:.3f}"
                if c in groups and groups[c].questions
                else "n/a"
                for c in categories
            ]
            lines.append("| " + " | ".join([system, *cells]) + " |")
    extra = {s: g[OVERALL] for s, g in (unscored or {}).items() if g[OVERALL].questions}
    if extra:
        count = next(iter(extra.values())).questions
        lines += ["", f"Reported separately ({count} questions outside the main figures, e.g. adversarial):", ""]
        lines += _table_head(["system", f"R_any@{k_main}", f"R_all@{k_main}"])
        for system, m in extra.items():
            lines.append(f"| {system} | {m.recall_any[k_main]:.3f} | {m.recall_all[k_main]:.3f} |")
    return "\n".join(lines) + "\n"


def _embedding_note(run: BenchRun) -> str:
    times = sorted(r.latency_ms["query-embedding"] for r in run.results if "query-embedding" in r.latency_ms)
    return f" (p50 {statistics.median(times):.1f} ms, cached across runs)" if times else ""


def _table_head(header: list[str]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]


def run_to_json(
    run: BenchRun,
    summary: dict[str, dict[str, GroupMetrics]],
    unscored: dict[str, dict[str, GroupMetrics]] | None = None,
) -> dict[str, Any]:
    from dataclasses import asdict

    return {
        "dataset": run.dataset,
        "systems": list(run.systems),
        "ks": list(run.ks),
        "budgets": list(run.budgets),
        "embedder": run.embedder,
        "tokenizer": TOKENIZER_NAME,
        "seconds": round(run.seconds, 2),
        "notes": run.notes,
        "metrics": {s: {g: asdict(m) for g, m in groups.items()} for s, groups in summary.items()},
        "unscored_metrics": {s: {g: asdict(m) for g, m in groups.items()} for s, groups in (unscored or {}).items()},
        "questions": [
            {
                "qid": r.question.qid,
                "unit": r.unit_id,
                "question": r.question.question,
                "category": r.question.category,
                "answer": r.question.answer,
                "scored": r.question.scored,
                "relevant": list(r.question.relevant_turns),
                "relevant_sessions": list(r.question.relevant_sessions),
                # Full depth: the widen rule of session-level scoring can need ids beyond max(ks).
                "ranked": r.ranked,
                "ranked_sessions": r.ranked_sessions,
                "contained": {s: {str(b): v for b, v in c.items()} for s, c in r.contained.items()},
            }
            for r in run.results
        ],
    }


def plot_recall(summary: dict[str, dict[str, GroupMetrics]], ks: Sequence[int], path: str | Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for system, groups in summary.items():
        m = groups[OVERALL]
        axes[0].plot(ks, [m.recall_any[k] for k in ks], marker="o", label=system)
        axes[1].plot(ks, [m.recall_all[k] for k in ks], marker="o", label=system)
    for ax, name in zip(axes, ("recall_any@k", "recall_all@k"), strict=True):
        ax.set_xlabel("k")
        ax.set_title(name)
        ax.set_xscale("log")
        ax.set_xticks(list(ks), [str(k) for k in ks])
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("turn-level recall")
    axes[1].legend()
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def render_backends(
    sqlite: dict[str, dict[str, GroupMetrics]],
    sqlite_s: float,
    postgres: dict[str, dict[str, GroupMetrics]],
    pg_s: float,
) -> str:
    """The same systems on both stores, side by side: recall at 10 and search latency."""
    lines = [
        f"## SQLite and PostgreSQL side by side (one run: {sqlite_s:.0f} s on SQLite, {pg_s:.0f} s on PostgreSQL)",
        "",
        "| system | R_any@10 SQLite | R_any@10 PostgreSQL | diff | R_all@10 SQLite | R_all@10 PostgreSQL | diff"
        " | p50 ms SQLite | p50 ms PostgreSQL |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for system, groups in sqlite.items():
        a, b = groups[OVERALL], postgres[system][OVERALL]
        any_a, any_b = a.recall_any.get(10, 0.0), b.recall_any.get(10, 0.0)
        all_a, all_b = a.recall_all.get(10, 0.0), b.recall_all.get(10, 0.0)
        lines.append(
            f"| {system} | {any_a:.3f} | {any_b:.3f} | {any_b - any_a:+.3f} | {all_a:.3f} | {all_b:.3f}"
            f" | {all_b - all_a:+.3f} | {a.latency_p50_ms:.1f} | {b.latency_p50_ms:.1f} |"
        )
    return "\n".join(lines) + "\n"
