from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.retrieve.fusion import RRF_K, reciprocal_rank_fusion


def test_rrf_hand_computed() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "b", "c"], ["b", "d"]]))
    assert fused["a"] == pytest.approx(1 / (RRF_K + 1))
    assert fused["b"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert fused["d"] == pytest.approx(1 / (RRF_K + 2))
    assert [k for k, _ in reciprocal_rank_fusion([["a", "b", "c"], ["b", "d"]])] == ["b", "a", "d", "c"]


def test_rrf_weights_and_duplicates() -> None:
    fused = dict(reciprocal_rank_fusion([["a", "a", "b"], ["b"]], weights=[1.0, 0.5]))
    assert fused["a"] == pytest.approx(1 / 61)  # the repeated "a" counts once, at rank 1
    assert fused["b"] == pytest.approx(1 / 62 + 0.5 / 61)
    with pytest.raises(ValueError):
        reciprocal_rank_fusion([["a"]], weights=[1.0, 2.0])


def test_rrf_ties_keep_first_seen_order() -> None:
    assert [k for k, _ in reciprocal_rank_fusion([["x"], ["y"]])] == ["x", "y"]


@given(st.lists(st.lists(st.integers(0, 20), max_size=15), max_size=4))
def test_rrf_scores_are_sorted_and_cover_every_id(rankings: list[list[int]]) -> None:
    fused = reciprocal_rank_fusion(rankings)
    scores = [s for _, s in fused]
    assert scores == sorted(scores, reverse=True)
    assert {k for k, _ in fused} == {i for r in rankings for i in r}
