"""The knobs cross-validation re-examines, each as alternatives to today's default, and the CV report.

A knob's alternatives are settings variants of the default preset (``overrides.py`` syntax), so every figure in the
report can be reproduced with ``sodamem bench locomo --system 'sodamem:<variant>'``. The values bracket the default
on both sides and include "off" where the knob can be off.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sodamem.bench.cv import (
    FIGURE_NAMES,
    CrossValidation,
    cross_validate,
    figures,
    per_unit_spread,
    scored_results,
)
from sodamem.bench.runner import QuestionResult

DEFAULT_SYSTEM = "sodamem"

KNOBS: dict[str, tuple[str, ...]] = {
    "session share": ("session_share=0.0", "session_share=0.15", "session_share=0.45"),
    "speaker weight": ("speaker_weight=0.0", "speaker_weight=1.0", "speaker_weight=3.0"),
    "gathering session share": ("gathering_session_share=0.3",),
    "temporal weight": ("temporal_weight=0.0", "temporal_weight=2.0"),
    "disclosure penalties": (
        "addressed_penalty=0.0+asking_penalty=0.0",
        "addressed_penalty=0.5+asking_penalty=0.5",
    ),
    "feedback only for gathering": ("feedback_gathering_only=true",),
    "feedback weight": ("weight.bm25_prf=0.0", "weight.bm25_prf=1.0"),
    "graph weight": ("weight.graph=0.0", "weight.graph=0.6"),
    "fact weight": ("weight.fact=0.0", "weight.fact=0.6"),
    "dense weight": ("weight.dense=1.0", "weight.dense=1.6"),
    "piece tunnels": ("weight.bm25_piece=0.0+weight.dense_piece=0.0",),
    "score share": ("density.score_share=0.3", "density.score_share=0.7"),
    "spill": ("density.spill=0.15", "density.spill=0.45"),
    # The multi-hop mechanisms (retrieve/aggregate.py): the entity tunnel and the answer-type bonus are off by
    # default, the answer-type tunnel weighs 0.6.
    "entity tunnel": ("weight.entity=0.3", "weight.entity=0.6", "weight.entity=0.3+entity_session_decay=0.5"),
    "answer-type tunnel": ("weight.answer_type=0.0", "weight.answer_type=0.3", "weight.answer_type=1.0"),
    "answer-type bonus": (
        "answer_type_bonus=0.5",
        "answer_type_bonus=1.0",
        "answer_type_bonus=0.5+answer_type_floor=0.3",
    ),
    # Mechanisms from the first pass's evidence (retrieve/bridge.py): the bridge tunnel over the whole ranking
    # (the turns nearest to each of the first pass's best turns; off: the default feeds it to the tail only) and
    # the near-duplicate discount (off).
    "bridge tunnel": (
        "bridge_seeds=3+bridge_tail_only=false",
        "bridge_tail_only=false",
        "bridge_seeds=3+bridge_gathering_only=true+bridge_tail_only=false",
        "weight.bridge=0.6+bridge_seeds=3+bridge_mix=0.25+bridge_gathering_only=true+bridge_tail_only=false",
    ),
    "near-duplicates": (
        "duplicate_penalty=0.3",
        "duplicate_penalty=0.6",
        "duplicate_penalty=0.3+duplicate_cosine=0.8",
    ),
    # The ranking's tail (retrieve/tail.py), off by default: ranks 11-40 re-ordered by session coverage or tunnel
    # leaders, the first 10 untouched (so every fold ties at @10: judge it with --cv-tiebreak-at20).
    "ranking tail": (
        "tail_pool=40+tail_session_decay=0.7",
        "tail_pool=40+tail_session_decay=0.5",
        "tail_pool=40+tail_tunnel_bonus=0.5",
        "tail_pool=40+tail_tunnel_bonus=1.0",
        "tail_pool=40+tail_session_decay=0.7+tail_gathering_only=true",
    ),
    # The bridge tunnel for the ranks after the first 10 only (tail.splice_tail), on by default (weight 0.3, one
    # seed): the head is the fusion without it, so every fold ties at @10 (judge it with --cv-tiebreak-at20).
    "bridge in the tail": (
        "weight.bridge=0.0",
        "bridge_seeds=3",
        "weight.bridge=0.6+bridge_seeds=3",
        "weight.bridge=0.6+bridge_seeds=3+bridge_mix=0.25+bridge_gathering_only=true",
    ),
    # Answers paired with their questions (tail.pair_answers), off by default: an asking turn among the first 20
    # (40) lends a share of its mass to the other speaker's next turn, below the first 10 only (so every fold ties
    # at @10: judge it with --cv-tiebreak-at20).
    "answer pairing": (
        "answer_pair_share=0.5",
        "answer_pair_share=1.0",
        "answer_pair_share=0.5+answer_pair_pool=40",
    ),
    # One tunnel weighed otherwise for the ranks after the first 10 only (tail_tunnel, off): the graph tunnel (0.3
    # in the head) or the entity tunnel (off in the head); every fold ties at @10 (judge with --cv-tiebreak-at20).
    "tail tunnel": (
        "tail_tunnel=graph+tail_tunnel_weight=0.6",
        "tail_tunnel=graph+tail_tunnel_weight=1.2",
        "tail_tunnel=entity+tail_tunnel_weight=0.3",
        "tail_tunnel=entity+tail_tunnel_weight=0.6",
    ),
    # The echo tunnel (retrieve/echo.py): the turns holding the rare words of the first pass's best turn, fed to the
    # ranks after the first 15 only (on by default, weight 1.5): every fold ties at @10 (judge it with
    # --cv-tiebreak-at20). Off, after rank 10 instead of 15, and a lighter weight.
    "echo in the tail": (
        "weight.echo=0.0",
        "echo_head=10",
        "weight.echo=1.0",
    ),
    # The dense tunnels asking without the speakers' names: on by default since CV chose it in 7 of 7 folds.
    "dense without names": ("dense_drop_names=false",),
    # Query decomposition (retrieve/decompose.py): only with `bench locomo --decompose` (an LLM); 0.5 by default.
    "query decomposition": (
        "subquery_weight=0.0",
        "subquery_weight=0.25",
        "subquery_weight=1.0",
        "subquery_new_words=true",
        "subquery_weight=0.25+subquery_new_words=true",
    ),
}
LLM_KNOBS = ("query decomposition",)  # in the default CV grid only where the run has the LLM they need


def variant_system(change: str) -> str:
    return f"sodamem:default+{change}"


def knob_candidates(knob: str) -> tuple[str, ...]:
    """The default first (ties keep it), then the knob's alternatives as bench system names."""
    if knob not in KNOBS:
        raise ValueError(f"unknown knob {knob!r}: one of {', '.join(KNOBS)}")
    return (DEFAULT_SYSTEM, *(variant_system(c) for c in KNOBS[knob]))


def grid_systems(knobs: Sequence[str]) -> tuple[str, ...]:
    """Every system a CV run over ``knobs`` needs: the default and each knob's alternatives."""
    return tuple(dict.fromkeys(s for k in knobs for s in knob_candidates(k)))


@dataclass(frozen=True, slots=True)
class CVReport:
    overall: CrossValidation  # selection among the default and every alternative of every knob
    by_knob: dict[str, CrossValidation]
    fixed: dict[str, tuple[dict[str, float], dict[str, tuple[float, float, float]]]]  # system -> dev, spread
    tiebreak_at20: bool = False  # ties on the objective went to the better R_all@20


def run_cv(
    results: Sequence[QuestionResult],
    knobs: Sequence[str],
    fixed_systems: Sequence[str],
    *,
    tiebreak_at20: bool = False,
) -> CVReport:
    overall = cross_validate(results, grid_systems(knobs), DEFAULT_SYSTEM, tiebreak_at20=tiebreak_at20)
    by_knob = {
        k: cross_validate(results, knob_candidates(k), DEFAULT_SYSTEM, tiebreak_at20=tiebreak_at20) for k in knobs
    }
    fixed = {}
    scored = scored_results(results)
    for system in fixed_systems:
        dev = figures([(r, system) for r in scored])
        fixed[system] = (dev, {name: per_unit_spread(results, system, name) for name in FIGURE_NAMES})
    return CVReport(overall, by_knob, fixed, tiebreak_at20)


def _short(system: str) -> str:
    return system.removeprefix("sodamem:default+") if system != DEFAULT_SYSTEM else "default"


def _cells(values: dict[str, float]) -> list[str]:
    return [f"{values[name]:.3f}" for name in FIGURE_NAMES]


def render_cv_markdown(report: CVReport) -> str:
    overall = report.overall
    folds = len(overall.folds)
    lines = [
        f"## Cross-validation (leave one conversation out, {folds} folds)",
        "",
        "Selection maximises R_all@10 + R_any@10 on the other conversations; the held-out conversation is scored "
        "with the chosen setting"
        + (" (ties on that sum go to the better R_all@20)" if report.tiebreak_at20 else "")
        + ". CV figures pool every held-out question once.",
        "",
        "| system | dev "
        + " | dev ".join(FIGURE_NAMES)
        + " | CV "
        + " | CV ".join(FIGURE_NAMES)
        + " | chosen in folds |",
        "|" + "---|" * (2 + 2 * len(FIGURE_NAMES)),
        "| sodamem, tuned among every knob | "
        + " | ".join(_cells(overall.dev) + _cells(overall.cross_validated))
        + " | "
        + ", ".join(f"{_short(c)} x{n}" for c, n in sorted(overall.chosen.items(), key=lambda x: -x[1]))
        + " |",
    ]
    for system, (dev, _) in report.fixed.items():
        lines.append(f"| {system} (fixed) | " + " | ".join(_cells(dev) + _cells(dev)) + " | - |")
    lines += [
        "",
        "Fixed systems choose nothing, so their CV figure is their dev figure; their spread over conversations "
        "(min / mean over conversations / max):",
        "",
        "| system | " + " | ".join(FIGURE_NAMES) + " |",
        "|" + "---|" * (1 + len(FIGURE_NAMES)),
    ]
    for system, (_, spread) in report.fixed.items():
        cells = [" / ".join(f"{v:.3f}" for v in spread[name]) for name in FIGURE_NAMES]
        lines.append(f"| {system} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Per knob (candidates: the default and the knob's alternatives; 'dev' columns are each candidate's plain "
        "figure over all conversations):",
        "",
        "| knob | candidate | dev " + " | dev ".join(FIGURE_NAMES) + " | folds choosing it |",
        "|" + "---|" * (3 + len(FIGURE_NAMES)),
    ]
    for knob, cv in report.by_knob.items():
        for candidate in cv.candidates:
            cells = _cells(cv.candidate_dev[candidate])
            lines.append(
                f"| {knob} | {_short(candidate)} | " + " | ".join(cells) + f" | {cv.chosen.get(candidate, 0)} |"
            )
        cells = _cells(cv.cross_validated)
        lines.append(f"| {knob} | **CV: selected per fold** | " + " | ".join(cells) + " | |")
    return "\n".join(lines) + "\n"


def cv_to_json(report: CVReport) -> dict[str, object]:
    def one(cv: CrossValidation) -> dict[str, object]:
        return {
            "default": cv.default,
            "dev": cv.dev,
            "cross_validated": cv.cross_validated,
            "gap": cv.gap,
            "chosen": cv.chosen,
            "candidate_dev": cv.candidate_dev,
            "folds": [
                {
                    "unit": f.held_out,
                    "chosen": f.chosen,
                    "held_out": f.held_out_figures,
                    "default_on_held_out": f.default_figures,
                }
                for f in cv.folds
            ],
        }

    return {
        "tiebreak_at20": report.tiebreak_at20,
        "overall": one(report.overall),
        "by_knob": {k: one(cv) for k, cv in report.by_knob.items()},
        "fixed": {s: {"dev": dev, "spread": spread} for s, (dev, spread) in report.fixed.items()},
    }
