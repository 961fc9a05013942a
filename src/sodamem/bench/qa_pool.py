"""Several QA runs of one configuration on disjoint slices, pooled into one run (``sodamem bench qa-pool``).

A local model answers 60 questions in half an hour, so a figure on a few hundred questions comes from several runs
of the same answerer on disjoint slices (``--sample 60 --sample-skip K``). ``pool_runs`` joins their JSON into one
run whose summary is computed afresh from the joined results (F1 per category, tokens, fallbacks, citations), so
``qa-table`` and ``qa-table --paired`` read a pooled run like any other. It refuses runs that differ in what was
measured (dataset, answerer, model, evidence source, budget, reader prompt, planner steps, scoring) or that share a
question: a pooled figure must not count a question twice. Pure: dicts in, a ``QARun`` out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

from sodamem.bench.qa_types import QAResult, QARun

# What a run measured: pooled runs must agree on all of it (notes keys, then summary keys).
SAME_NOTES = ("data", "budget_tokens", "max_steps", "evidence", "reader_prompt", "speaker_guard", "cited_dates",
              "concise_answers", "focus_tokens", "list_budget_tokens", "offline_states",
              "offline_relations")  # fmt: skip
SAME_SUMMARY = ("dataset", "answerer", "model", "judge", "embedder", "score_name")
# Notes that say which slice a run read, kept per run under ``pooled_from``.
SLICE_NOTES = ("sample", "sample_skip")
LOCOMO_OVERALL = ("1", "2", "3", "4")  # runs written before the summary recorded it scored LoCoMo on 1-4
_RESULT_FIELDS = {f.name for f in fields(QAResult)}


def run_from_dict(data: Mapping[str, Any]) -> QARun:
    """A QA run's JSON (``QARun.to_dict``) read back into a ``QARun``."""
    summary = data["summary"]
    overall = summary.get("overall_categories")
    if overall is None and "overall_categories" not in summary and summary["dataset"] == "LoCoMo":
        overall = LOCOMO_OVERALL
    return QARun(
        dataset=summary["dataset"],
        answerer=summary["answerer"],
        embedder=summary.get("embedder"),
        results=[QAResult(**{k: v for k, v in r.items() if k in _RESULT_FIELDS}) for r in data["results"]],
        seconds=float(summary.get("seconds", 0.0)),
        notes=dict(data.get("notes", {})),
        score_name=summary["score_name"],
        category_names={key: group["name"] for key, group in summary["categories"].items()},
        overall_categories=tuple(overall) if overall is not None else None,
        model=summary.get("model"),
        judge=summary.get("judge"),
        endpoint=summary.get("endpoint", "none"),
    )


def pool_runs(runs: Sequence[Mapping[str, Any]], names: Sequence[str] | None = None) -> QARun:
    """``runs`` (QA run JSON) joined into one run; ``names`` (file names, say) label them in errors and notes.

    Raises ``ValueError`` naming the first difference in configuration or the first question in two runs.
    """
    if not runs:
        raise ValueError("no run to pool")
    labels = list(names) if names is not None else [f"run {i + 1}" for i in range(len(runs))]
    for label, run in zip(labels, runs, strict=True):
        summary, results = run.get("summary"), run.get("results")
        if not isinstance(summary, dict) or not isinstance(results, list) or "dataset" not in summary:
            raise ValueError(f"{label} is not a QA run's JSON (it needs a summary and its results)")
    first = runs[0]
    for label, run in zip(labels[1:], runs[1:], strict=True):
        for where, keys in (("summary", SAME_SUMMARY), ("notes", SAME_NOTES)):
            for key in keys:
                mine, theirs = first.get(where, {}).get(key), run.get(where, {}).get(key)
                if mine != theirs:
                    raise ValueError(f"{label} differs from {labels[0]} in {key}: {theirs!r} against {mine!r}")
    owner: dict[str, str] = {}
    for label, run in zip(labels, runs, strict=True):
        for result in run["results"]:
            qid = result["qid"]
            if qid in owner:
                raise ValueError(f"question {qid} is in both {owner[qid]} and {label}: slices must not overlap")
            owner[qid] = label
    parts = [run_from_dict(run) for run in runs]
    notes: dict[str, Any] = {key: first["notes"][key] for key in SAME_NOTES if key in first.get("notes", {})}
    notes["pooled_from"] = [
        {"run": label, "questions": len(part.results), **{k: part.notes.get(k) for k in SLICE_NOTES}}
        for label, part in zip(labels, parts, strict=True)
    ]
    head = parts[0]
    return QARun(
        dataset=head.dataset,
        answerer=head.answerer,
        embedder=head.embedder,
        results=[result for part in parts for result in part.results],
        seconds=sum(part.seconds for part in parts),
        notes=notes,
        score_name=head.score_name,
        # a run names only the categories its slice held
        category_names={key: name for part in parts for key, name in part.category_names.items()},
        overall_categories=head.overall_categories,
        model=head.model,
        judge=head.judge,
        endpoint=" + ".join(dict.fromkeys(part.endpoint for part in parts)),
    )
