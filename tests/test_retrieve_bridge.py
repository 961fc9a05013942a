"""The bridge tunnel's pure parts: the probe vector of a seed, and the ranking over all seeds' hits."""

from __future__ import annotations

import numpy as np
import pytest

from sodamem.retrieve.bridge import blend, bridge_ranking, discount_duplicates, distinct_session_seeds
from sodamem.retrieve.presets import FusedSettings, fused_settings


def test_blend_is_the_normalised_mix_of_the_unit_vectors() -> None:
    q = np.array([2.0, 0.0, 0.0])  # taken as a unit vector: the scale of either input does not matter
    s = np.array([0.0, 0.5, 0.0])
    probe = blend(q, s, 0.5)
    assert probe == pytest.approx(np.array([1.0, 1.0, 0.0]) / np.sqrt(2.0))
    assert float(np.linalg.norm(probe)) == pytest.approx(1.0)


def test_blend_at_the_ends_is_the_question_or_the_seed() -> None:
    q = np.array([[3.0, 4.0]])  # a (1, d) row, as queries come
    s = np.array([0.0, 1.0])
    assert blend(q, s, 1.0) == pytest.approx([0.6, 0.8])
    assert blend(q, s, 0.0) == pytest.approx([0.0, 1.0])


def test_blend_of_opposite_vectors_stays_zero_and_refuses_a_bad_mix() -> None:
    assert blend(np.array([1.0, 0.0]), np.array([-1.0, 0.0]), 0.5) == pytest.approx([0.0, 0.0])
    with pytest.raises(ValueError, match="mix"):
        blend(np.array([1.0]), np.array([1.0]), 1.5)


def test_bridge_ranking_takes_each_turns_best_weighted_cosine_and_leaves_the_seeds_out() -> None:
    hits = {
        1: [(1, 1.0), (10, 0.9), (11, 0.5), (2, 0.8)],  # seed 1 finds itself and seed 2: both left out
        2: [(2, 1.0), (11, 0.9), (12, 0.7)],
    }
    ranking = bridge_ranking(hits, {1: 1.0, 2: 0.5}, limit=10)
    # 10: 1.0 * 0.9; 11: max(1.0 * 0.5, 0.5 * 0.9) = 0.5; 12: 0.5 * 0.7
    assert ranking == [(10, pytest.approx(0.9)), (11, pytest.approx(0.5)), (12, pytest.approx(0.35))]


def test_bridge_ranking_breaks_ties_by_turn_id_cuts_at_limit_and_weighs_unknown_seeds_one() -> None:
    hits = {5: [(9, 0.4), (7, 0.4), (8, 0.3)]}
    assert bridge_ranking(hits, {}, limit=2) == [(7, 0.4), (9, 0.4)]
    assert bridge_ranking(hits, {}, limit=0) == []
    assert bridge_ranking({}, {}, limit=5) == []


def test_bridge_settings_parse_and_refuse_bad_values() -> None:
    settings = fused_settings("default+weight.bridge=0.6+bridge_seeds=5+bridge_mix=0.25+bridge_gathering_only=true")
    assert settings.density.weight("bridge") == 0.6
    assert (settings.bridge_seeds, settings.bridge_mix, settings.bridge_gathering_only) == (5, 0.25, True)
    with pytest.raises(ValueError, match="bridge_mix"):
        FusedSettings(bridge_mix=1.5)
    with pytest.raises(ValueError, match="bridge_seeds"):
        FusedSettings(bridge_seeds=-1)


def test_discount_duplicates_lowers_a_turn_close_to_a_better_one_and_resorts() -> None:
    v = {
        1: np.array([1.0, 0.0]),
        2: np.array([0.99, np.sqrt(1 - 0.99**2)]),  # cosine 0.99 with 1: a near-duplicate
        3: np.array([0.0, 1.0]),  # unlike 1; cosine 0.14 with 2
    }
    ranking = [(1, 1.0), (2, 0.9), (3, 0.6)]
    out = discount_duplicates(ranking, v, threshold=0.9, penalty=0.5)
    assert out == [(1, 1.0), (3, 0.6), (2, pytest.approx(0.45))]


def test_discount_duplicates_off_keeps_the_ranking_and_skips_turns_without_vectors() -> None:
    v = {1: np.array([1.0, 0.0]), 2: np.array([1.0, 0.0])}
    ranking = [(1, 1.0), (4, 0.95), (2, 0.9)]
    assert discount_duplicates(ranking, v, threshold=0.9, penalty=0.0) == ranking
    assert discount_duplicates(ranking, v, threshold=1.01, penalty=0.5) == ranking
    # 4 has no vector: never a duplicate, never a reason to discount another; 2 duplicates 1 (cosine 1)
    assert discount_duplicates(ranking, v, threshold=0.9, penalty=0.5) == [(1, 1.0), (4, 0.95), (2, 0.45)]
    assert discount_duplicates([], v, threshold=0.9, penalty=0.5) == []


def test_distinct_session_seeds_take_each_sessions_best_in_order() -> None:
    sessions = {1: 10, 2: 10, 3: 20, 4: 20, 5: 30}
    assert distinct_session_seeds([1, 2, 3, 4, 5], sessions, 2) == [1, 3]
    assert distinct_session_seeds([1, 2, 3, 4, 5], sessions, 5) == [1, 3, 5]
    assert distinct_session_seeds([7, 8], {}, 2) == [7, 8]  # units without a session are sessions of their own
    assert distinct_session_seeds([1, 2], sessions, 0) == []
