"""Two QA runs on the same questions, compared question by question, with a bootstrap interval.

A local model's QA sample is 60 questions; two runs that differ by 0.03 F1 on it may differ by nothing at all.
``paired`` takes two runs' per-question scores on the same questions (categories 1-4) and resamples the questions
(a paired bootstrap: each resample draws questions with replacement and keeps both runs' scores of each): the mean
difference with its interval, the ratio of the means with its interval (for "2x the offline reader"), and how
many questions each run won. An interval that holds 0 (or 1 for the ratio) says the sample cannot tell the runs
apart. Pure: the same scores and seed give the same figures.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sodamem.bench.qa_table import SCORED, run_label

RESAMPLES = 10_000


@dataclass(frozen=True, slots=True)
class Paired:
    label_a: str
    label_b: str
    questions: int
    mean_a: float
    mean_b: float
    difference: float  # mean_a - mean_b
    difference_low: float
    difference_high: float
    ratio: float | None  # mean_a / mean_b; None when mean_b is 0
    ratio_low: float | None
    ratio_high: float | None
    wins_a: int
    wins_b: int
    ties: int


def paired(
    scores_a: Sequence[float],
    scores_b: Sequence[float],
    *,
    label_a: str = "a",
    label_b: str = "b",
    level: float = 0.95,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> Paired:
    """``scores_a[i]`` and ``scores_b[i]`` are the two runs' scores of question ``i``."""
    if len(scores_a) != len(scores_b):
        raise ValueError(f"paired scores need the same questions: {len(scores_a)} against {len(scores_b)}")
    if not scores_a:
        raise ValueError("no question to compare")
    if not 0 < level < 1:
        raise ValueError(f"the interval's level must lie between 0 and 1, not {level}")
    a, b = np.asarray(scores_a, dtype=float), np.asarray(scores_b, dtype=float)
    draws = np.random.default_rng(seed).integers(0, len(a), size=(resamples, len(a)))
    means_a, means_b = a[draws].mean(axis=1), b[draws].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means_a - means_b, [tail, 100 - tail])
    ratio = ratio_low = ratio_high = None
    if b.mean() > 0:
        # A resample whose baseline scored 0 has an unbounded ratio; order statistics (no interpolation) keep it. A
        # baseline near 0 overflows to the same infinity, which is what the ratio is then (no warning needed).
        with np.errstate(over="ignore"):
            ratio = float(a.mean() / b.mean())
            safe = np.where(means_b > 0, means_b, 1.0)
            ratios = np.where(means_b > 0, means_a / safe, np.inf)
        ratio_low = float(np.percentile(ratios, tail, method="lower"))
        ratio_high = float(np.percentile(ratios, 100 - tail, method="higher"))
    return Paired(
        label_a=label_a,
        label_b=label_b,
        questions=len(a),
        mean_a=float(a.mean()),
        mean_b=float(b.mean()),
        difference=float(a.mean() - b.mean()),
        difference_low=float(low),
        difference_high=float(high),
        ratio=ratio,
        ratio_low=ratio_low,
        ratio_high=ratio_high,
        wins_a=int((a > b).sum()),
        wins_b=int((a < b).sum()),
        ties=int((a == b).sum()),
    )


def scored_results(run: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """A run's per-question results on categories 1-4, by question id."""
    return {r["qid"]: r for r in run["results"] if str(r["category"]) in SCORED}


def paired_runs(run_a: Mapping[str, Any], run_b: Mapping[str, Any], **options: Any) -> Paired:
    """Two runs' JSON compared on the scored questions they share (both must hold the same question ids)."""
    a, b = scored_results(run_a), scored_results(run_b)
    if set(a) != set(b):
        only = sorted(set(a) ^ set(b))
        raise ValueError(f"the runs answered different questions ({len(only)} not in both, e.g. {only[0]})")
    ids = sorted(a)
    return paired(
        [a[q]["score"] for q in ids],
        [b[q]["score"] for q in ids],
        label_a=run_label(run_a),
        label_b=run_label(run_b),
        **options,
    )


def paired_with_offline(run: Mapping[str, Any], **options: Any) -> Paired | None:
    """A run against the offline reader it scored beside it (``baseline_score``); None when it has none."""
    results = scored_results(run)
    if not results or any(r.get("baseline_score") is None for r in results.values()):
        return None
    ids = sorted(results)
    return paired(
        [results[q]["score"] for q in ids],
        [results[q]["baseline_score"] for q in ids],
        label_a=run_label(run),
        label_b="offline reader, same questions",
        **options,
    )


def render_paired(comparisons: Sequence[Paired], level: float = 0.95) -> str:
    percent = f"{level:.0%}"
    lines = [
        f"| run | against | questions | F1 | against F1 | difference [{percent}] | ratio [{percent}] "
        "| won / lost / tied |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for p in comparisons:
        ratio = "–" if p.ratio is None else f"{p.ratio:.2f}x [{p.ratio_low:.2f}, {_bound(p.ratio_high)}]"
        lines.append(
            f"| {p.label_a} | {p.label_b} | {p.questions} | {p.mean_a:.3f} | {p.mean_b:.3f} | "
            f"{p.difference:+.3f} [{p.difference_low:+.3f}, {p.difference_high:+.3f}] | {ratio} | "
            f"{p.wins_a} / {p.wins_b} / {p.ties} |"
        )
    return "\n".join(lines)


def _bound(value: float | None) -> str:
    return "–" if value is None else ("inf" if value == float("inf") else f"{value:.2f}")
