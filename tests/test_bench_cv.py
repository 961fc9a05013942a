"""Leave-one-conversation-out cross-validation: selection by hand on made-up rankings, and the CLI end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sodamem.bench.cv import FIGURE_NAMES, cross_validate, figures, objective
from sodamem.bench.cv_grid import DEFAULT_SYSTEM, KNOBS, grid_systems, knob_candidates
from sodamem.bench.runner import BenchQuestion, QuestionResult
from sodamem.cli import main
from sodamem.retrieve.presets import fused_settings
from tests.test_bench_retrieval import LOCOMO_DATA

R_ANY, R_ALL, MULTI_HOP = FIGURE_NAMES
HIT, MISS = ["e", "x"], ["x", "y"]  # a ranking that finds the evidence "e" at rank 1, and one that misses it


def _result(unit: str, index: int, rankings: dict[str, list[str]], category: str = "single-hop") -> QuestionResult:
    question = BenchQuestion(f"{unit}#{index}", "q?", category, None, ("e",), ("S1",))
    return QuestionResult(question=question, unit_id=unit, ranked=rankings)


def _units(pattern: dict[str, dict[str, list[bool]]]) -> list[QuestionResult]:
    """``unit -> system -> hit per question``."""
    out = []
    for unit, systems in pattern.items():
        count = len(next(iter(systems.values())))
        for i in range(count):
            out.append(_result(unit, i, {s: HIT if hits[i] else MISS for s, hits in systems.items()}))
    return out


def test_objective_and_figures_by_hand() -> None:
    hit, miss = _result("u", 0, {"a": HIT}), _result("u", 1, {"a": MISS}, category="multi-hop")
    assert objective(hit, "a") == 2.0 and objective(miss, "a") == 0.0
    values = figures([(hit, "a"), (miss, "a")])
    assert values == {R_ANY: 0.5, R_ALL: 0.5, MULTI_HOP: 0.0}


def test_each_fold_chooses_on_the_other_units_only() -> None:
    # "b" wins on u1 and u2 but loses on u3; "a" (the default) wins on u3 only.
    results = _units(
        {
            "u1": {"a": [False, False], "b": [True, True]},
            "u2": {"a": [False, True], "b": [True, True]},
            "u3": {"a": [True, True], "b": [False, False]},
        }
    )
    cv = cross_validate(results, ["a", "b"], "a")
    chosen = {f.held_out: f.chosen for f in cv.folds}
    # Holding out u1: a scores 3 (u2: 1, u3: 2), b scores 2 (u2: 2), so a; likewise for u2; holding out u3: b.
    assert chosen == {"u1": "a", "u2": "a", "u3": "b"}
    assert cv.chosen == {"a": 2, "b": 1}
    # Held out: a on u1 (0 of 2), a on u2 (1 of 2), b on u3 (0 of 2): 1 of 6 questions.
    assert cv.cross_validated[R_ALL] == pytest.approx(1 / 6)
    assert cv.dev[R_ALL] == pytest.approx(3 / 6)  # the default over everything
    assert cv.gap[R_ALL] == pytest.approx(2 / 6)
    assert cv.candidate_dev["b"][R_ALL] == pytest.approx(4 / 6)
    assert cv.folds_keeping_default == 2


def test_a_setting_that_wins_everywhere_is_chosen_in_every_fold_and_cv_equals_its_dev_figure() -> None:
    results = _units({u: {"a": [False, True], "b": [True, True]} for u in ("u1", "u2", "u3")})
    cv = cross_validate(results, ["a", "b"], "a")
    assert cv.chosen == {"b": 3}
    assert cv.cross_validated == cv.candidate_dev["b"]


def test_ties_keep_the_earlier_candidate() -> None:
    results = _units({u: {"a": [True, False], "b": [False, True]} for u in ("u1", "u2")})
    assert cross_validate(results, ["a", "b"], "a").chosen == {"a": 2}
    assert cross_validate(results, ["b", "a"], "a").chosen == {"b": 2}


def test_the_at20_tiebreak_orders_only_settings_tied_at_10() -> None:
    # "a" and "b" find "e" at rank 1 alike; "b" also finds the second evidence "f" at rank 12, "a" never does;
    # "c" finds nothing at @10 but everything at @20: the tie-break never lifts it over a better @10.
    deep = ["e", *(f"x{i}" for i in range(10)), "f"]
    shallow = ["e", *(f"x{i}" for i in range(20))]
    late = [*(f"x{i}" for i in range(10)), "e", "f"]
    results = []
    for unit in ("u1", "u2", "u3"):
        question = BenchQuestion(f"{unit}#0", "q?", "multi-hop", None, ("e", "f"), ("S1",))
        results.append(QuestionResult(question=question, unit_id=unit, ranked={"a": shallow, "b": deep, "c": late}))
    assert cross_validate(results, ["a", "b", "c"], "a").chosen == {"a": 3}
    cv = cross_validate(results, ["a", "b", "c"], "a", tiebreak_at20=True)
    assert cv.chosen == {"b": 3}
    assert cv.cross_validated[MULTI_HOP] == 1.0 and cv.dev[MULTI_HOP] == 0.0


def test_unscored_and_evidence_free_questions_are_left_out() -> None:
    results = _units({"u1": {"a": [True]}, "u2": {"a": [False]}})
    unscored = BenchQuestion("u1#9", "q?", "adversarial", None, ("e",), ("S1",), scored=False)
    adversarial = QuestionResult(unscored, "u1", {"a": MISS})
    empty = QuestionResult(BenchQuestion("u2#9", "q?", "single-hop", None, (), ()), "u2", {"a": MISS})
    cv = cross_validate([*results, adversarial, empty], ["a"], "a")
    assert cv.dev[R_ALL] == 0.5


def test_bad_calls_name_the_problem() -> None:
    results = _units({"u1": {"a": [True]}, "u2": {"a": [True]}})
    with pytest.raises(ValueError, match="default"):
        cross_validate(results, ["a"], "b")
    with pytest.raises(ValueError, match="no rankings"):
        cross_validate(results, ["a", "zz"], "a")
    with pytest.raises(ValueError, match="two units"):
        cross_validate(_units({"u1": {"a": [True]}}), ["a"], "a")


def test_every_knob_alternative_is_a_valid_setting_and_differs_from_the_default() -> None:
    default = fused_settings("default")
    for knob in KNOBS:
        candidates = knob_candidates(knob)
        assert candidates[0] == DEFAULT_SYSTEM
        for system in candidates[1:]:
            assert fused_settings(system.partition(":")[2]) != default, system
    assert len(grid_systems(tuple(KNOBS))) == 1 + sum(len(v) for v in KNOBS.values())


def test_cli_bench_locomo_cv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps(LOCOMO_DATA), "utf-8")
    out = tmp_path / "cv.json"
    args = ["--data", str(data), "--embedder", "fake", "--no-cache", "--system", "sodamem", "--system", "bm25"]
    main(["bench", "locomo", *args, "--cv", "--cv-knob", "spill", "--cv-knob", "session share", "--json", str(out)])
    printed = capsys.readouterr().out
    assert "Cross-validation (leave one conversation out, 2 folds)" in printed
    payload = json.loads(out.read_text("utf-8"))
    cv = payload["cross_validation"]
    assert set(cv["by_knob"]) == {"spill", "session share"}
    assert len(cv["overall"]["folds"]) == 2 and sum(cv["overall"]["chosen"].values()) == 2
    assert set(cv["overall"]["candidate_dev"]) == set(grid_systems(("spill", "session share")))
    assert set(cv["fixed"]) == {"bm25"}
    assert cv["fixed"]["bm25"]["dev"][R_ALL] == pytest.approx(payload["metrics"]["bm25"]["overall"]["recall_all"]["10"])


def test_cli_cv_knob_without_cv_is_a_usage_error(tmp_path: Path) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps(LOCOMO_DATA), "utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["bench", "locomo", "--data", str(data), "--embedder", "none", "--cv-knob", "spill"])
    assert exc.value.code == 2
