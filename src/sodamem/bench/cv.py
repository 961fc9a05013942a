"""Leave-one-conversation-out cross-validation of the search's settings: pure functions over benchmark results.

Every candidate setting (a bench system name such as ``sodamem:default+session_share=0.15``) is run once over every
unit; the selection then happens here, on the stored rankings. For each fold one unit is held out, the candidate
with the best objective on the other units is chosen, and the held-out unit's questions are scored with that
candidate's rankings. The cross-validated figure pools the held-out questions of all folds, so every question is
scored exactly once, by a setting chosen without it: beside the plain dev figure of the default it shows how much
of the default's figure came from fitting the dev split.

A knob (a group of alternatives to one default setting) is examined the same way with only the default and its
alternatives as candidates: how many folds keep the default, and what the selection earns on held-out data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from sodamem.bench.metrics import mean, recall_all, recall_any
from sodamem.bench.runner import QuestionResult

SELECT_K = 10
MULTI_HOP_K = 20
FIGURE_NAMES = (f"R_any@{SELECT_K}", f"R_all@{SELECT_K}", f"multi-hop R_all@{MULTI_HOP_K}")


def objective(result: QuestionResult, system: str) -> float:
    """What the selection maximises per question: R_all@10 plus R_any@10 (both targets, equally weighted)."""
    relevant, ranked = result.question.relevant_turns, result.ranked[system]
    return recall_all(ranked, relevant, SELECT_K) + recall_any(ranked, relevant, SELECT_K)


def tiebreak(result: QuestionResult, system: str) -> float:
    """What breaks ties of the objective (``tiebreak_at20``): R_all@20, the depth the multi-hop target is set at.
    A setting that changes only ranks 11-20 ties the default at @10 on every fold; this lets the folds judge it."""
    return recall_all(result.ranked[system], result.question.relevant_turns, MULTI_HOP_K)


def figures(scored: Sequence[tuple[QuestionResult, str]]) -> dict[str, float]:
    """The reported figures over (question, system whose ranking scores it) pairs."""
    multi_hop = [(r, s) for r, s in scored if r.question.category == "multi-hop"]
    return {
        FIGURE_NAMES[0]: mean(recall_any(r.ranked[s], r.question.relevant_turns, SELECT_K) for r, s in scored),
        FIGURE_NAMES[1]: mean(recall_all(r.ranked[s], r.question.relevant_turns, SELECT_K) for r, s in scored),
        FIGURE_NAMES[2]: mean(recall_all(r.ranked[s], r.question.relevant_turns, MULTI_HOP_K) for r, s in multi_hop),
    }


@dataclass(frozen=True, slots=True)
class Fold:
    held_out: str  # the unit (conversation) left out
    chosen: str  # the candidate that scored best on the other units
    held_out_figures: dict[str, float]  # the chosen candidate on the held-out unit
    default_figures: dict[str, float]  # the default on the held-out unit, for comparison


@dataclass(frozen=True, slots=True)
class CrossValidation:
    default: str
    candidates: tuple[str, ...]
    folds: tuple[Fold, ...]
    dev: dict[str, float]  # the default over every unit (the plain dev figure)
    cross_validated: dict[str, float]  # pooled over held-out questions, each scored by its fold's choice
    chosen: dict[str, int] = field(default_factory=dict)  # candidate -> folds that chose it
    candidate_dev: dict[str, dict[str, float]] = field(default_factory=dict)  # each candidate over every unit

    @property
    def gap(self) -> dict[str, float]:
        """Plain dev figure minus the cross-validated one: how much the default's figure owes to the dev split."""
        return {name: self.dev[name] - self.cross_validated[name] for name in FIGURE_NAMES}

    @property
    def folds_keeping_default(self) -> int:
        return self.chosen.get(self.default, 0)


def scored_results(results: Sequence[QuestionResult]) -> list[QuestionResult]:
    """The questions the retrieval figures count: scored categories with at least one reachable evidence turn."""
    return [r for r in results if r.question.scored and r.question.relevant_turns]


def cross_validate(
    results: Sequence[QuestionResult], candidates: Sequence[str], default: str, *, tiebreak_at20: bool = False
) -> CrossValidation:
    """Leave-one-unit-out selection among ``candidates`` (ties go to the earlier one; put the default first). With
    ``tiebreak_at20`` candidates tied on the objective are ordered by R_all@20 first (``tiebreak``), then by order."""
    if default not in candidates:
        raise ValueError(f"the default {default!r} must be one of the candidates")
    scored = scored_results(results)
    units = list(dict.fromkeys(r.unit_id for r in scored))
    if len(units) < 2:
        raise ValueError(f"cross-validation needs at least two units with scored questions, got {len(units)}")
    missing = {c for c in candidates for r in scored if c not in r.ranked}
    if missing:
        raise ValueError(f"no rankings for {sorted(missing)}: run them first")
    by_unit: dict[str, list[QuestionResult]] = {u: [r for r in scored if r.unit_id == u] for u in units}
    # Per unit and candidate, the objective's sum: a fold's training score is the sum over its other units.
    sums = {u: {c: sum(objective(r, c) for r in rows) for c in candidates} for u, rows in by_unit.items()}
    second = {
        u: {c: sum(tiebreak(r, c) for r in rows) if tiebreak_at20 else 0.0 for c in candidates}
        for u, rows in by_unit.items()
    }
    folds: list[Fold] = []
    pooled: list[tuple[QuestionResult, str]] = []
    for held_out in units:
        training = [u for u in units if u != held_out]
        totals = {c: (sum(sums[u][c] for u in training), sum(second[u][c] for u in training)) for c in candidates}
        best = max(candidates, key=lambda c: (totals[c], -candidates.index(c)))
        rows = by_unit[held_out]
        pooled += [(r, best) for r in rows]
        folds.append(Fold(held_out, best, figures([(r, best) for r in rows]), figures([(r, default) for r in rows])))
    return CrossValidation(
        default=default,
        candidates=tuple(candidates),
        folds=tuple(folds),
        dev=figures([(r, default) for r in scored]),
        cross_validated=figures(pooled),
        chosen=dict(Counter(f.chosen for f in folds)),
        candidate_dev={c: figures([(r, c) for r in scored]) for c in candidates},
    )


def per_unit_spread(results: Sequence[QuestionResult], system: str, name: str) -> tuple[float, float, float]:
    """Min, mean and max over units of one figure for a fixed system (the mean is over units, not questions)."""
    scored = scored_results(results)
    units = list(dict.fromkeys(r.unit_id for r in scored))
    values = [figures([(r, system) for r in scored if r.unit_id == u])[name] for u in units]
    return min(values), mean(values), max(values)
