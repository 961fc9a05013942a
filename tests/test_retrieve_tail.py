"""The ranking's tail (retrieve/tail.py): ranks below the head re-ordered for session coverage and tunnel leaders."""

from __future__ import annotations

import pytest

from sodamem.retrieve.presets import FusedSettings, fused_settings
from sodamem.retrieve.tail import best_ranks, pair_answers, rerank_tail, splice_tail

RANKING = [(1, 10.0), (2, 9.0), (3, 8.0), (4, 7.0), (5, 6.0), (6, 5.0)]
SESSIONS = {1: 1, 2: 1, 3: 1, 4: 2, 5: 1, 6: 3}


def test_the_head_and_the_ranks_after_the_pool_keep_their_order() -> None:
    out = rerank_tail(RANKING, SESSIONS, {}, head=2, pool=5, session_decay=0.5)
    assert out[:2] == RANKING[:2]
    assert out[5:] == RANKING[5:]
    assert sorted(pk for pk, _ in out) == [1, 2, 3, 4, 5, 6]


def test_session_decay_lifts_a_turn_of_an_unseen_session_over_a_third_turn_of_a_seen_one() -> None:
    out = rerank_tail(RANKING, SESSIONS, {}, head=2, pool=5, session_decay=0.5)
    # session 1 has two turns in the head: 3 counts 8 * 0.25, 4 (session 2) 7; then 5 counts 6 * 0.125 after 3
    assert out[2:5] == [(4, 7.0), (3, 2.0), (5, 0.75)]


def test_a_unit_missing_from_the_sessions_is_its_own_session() -> None:
    out = rerank_tail(RANKING, {1: 1, 2: 1, 3: 1}, {}, head=2, pool=4, session_decay=0.5)
    assert [pk for pk, _ in out[2:4]] == [4, 3]


def test_tunnel_bonus_lifts_a_unit_among_the_first_lead_rank_of_a_tunnel() -> None:
    out = rerank_tail(RANKING, SESSIONS, {5: 3, 3: 4}, head=2, pool=6, tunnel_bonus=1.0, lead_rank=3)
    assert out[2:6] == [(5, 12.0), (3, 8.0), (4, 7.0), (6, 5.0)]


def test_neutral_factors_or_a_pool_inside_the_head_change_nothing() -> None:
    assert rerank_tail(RANKING, SESSIONS, {5: 1}, head=2, pool=6) == RANKING
    assert rerank_tail(RANKING, SESSIONS, {}, head=4, pool=5, session_decay=0.1) == RANKING
    assert rerank_tail(RANKING[:3], SESSIONS, {}, head=3, pool=10, session_decay=0.1) == RANKING[:3]


def test_equal_scores_keep_the_given_order() -> None:
    ranking = [(1, 1.0), (7, 2.0), (8, 2.0), (9, 2.0)]
    assert rerank_tail(ranking, {7: 1, 8: 2, 9: 3}, {}, head=1, pool=4, session_decay=0.5) == ranking


def test_bad_factors_are_refused() -> None:
    with pytest.raises(ValueError, match="session_decay"):
        rerank_tail(RANKING, SESSIONS, {}, head=2, pool=5, session_decay=0.0)
    with pytest.raises(ValueError, match="tunnel_bonus"):
        rerank_tail(RANKING, SESSIONS, {}, head=2, pool=5, tunnel_bonus=-1.0)


def test_best_ranks_takes_each_units_best_rank_over_the_tunnels() -> None:
    rankings = {"bm25": [(3, 9.0), (5, 8.0)], "dense": [(5, 0.9), (4, 0.8), (3, 0.7)]}
    assert best_ranks(rankings, [3, 4, 5, 6]) == {3: 1, 4: 2, 5: 1}


def test_the_tail_settings_are_checked_and_reachable_by_name() -> None:
    settings = fused_settings("default+tail_pool=40+tail_session_decay=0.7+tail_gathering_only=true")
    assert (settings.tail_pool, settings.tail_session_decay, settings.tail_gathering_only) == (40, 0.7, True)
    assert FusedSettings().tail_pool == 0  # off by default
    with pytest.raises(ValueError, match="tail_session_decay"):
        FusedSettings(tail_session_decay=1.5)
    with pytest.raises(ValueError, match="tail_lead_rank"):
        FusedSettings(tail_lead_rank=0)


def test_splice_tail_keeps_the_head_of_one_order_and_the_rest_of_the_other() -> None:
    assert splice_tail([1, 2, 3, 4, 5], [3, 9, 1, 8], 2) == [1, 2, 3, 9, 8, 4, 5]
    assert splice_tail([1, 2], [2, 1], 5) == [1, 2]  # a head longer than the order: the first order whole
    assert splice_tail([1, 2, 3], [3, 2, 1], 0) == [3, 2, 1]


def test_the_bridge_feeds_the_tail_by_default_and_the_whole_ranking_on_request() -> None:
    default = FusedSettings()
    assert default.bridge_tail_only and default.density.weight("bridge") == 0.3 and default.bridge_seeds == 1
    assert not fused_settings("default+bridge_tail_only=false").bridge_tail_only


# Answers paired with their questions (tail.pair_answers): 2 asks, 6 answers it; 1 asks, 3 answers it.
PAIRED = [(1, 10.0), (2, 9.0), (3, 8.0), (4, 7.0), (5, 6.0), (6, 1.0)]


def test_an_answer_below_the_head_moves_up_to_its_lent_mass() -> None:
    out = pair_answers(PAIRED, {2: 6}, head=2, pool=4, share=0.75)
    # 6 gets 0.75 x 9 = 6.75: before 5 (6.0), after 4 (7.0)
    assert out == [(1, 10.0), (2, 9.0), (3, 8.0), (4, 7.0), (6, 6.75), (5, 6.0)]


def test_the_head_never_moves_and_an_answer_in_it_keeps_its_mass() -> None:
    out = pair_answers(PAIRED, {3: 2, 4: 1}, head=2, pool=6, share=1.0)
    assert out == PAIRED


def test_an_answer_keeps_its_own_mass_where_it_is_higher() -> None:
    assert pair_answers(PAIRED, {5: 3}, head=2, pool=6, share=1.0) == PAIRED


def test_only_asking_turns_within_the_pool_lend() -> None:
    assert pair_answers(PAIRED, {5: 6}, head=2, pool=4, share=1.0) == PAIRED
    # lent 6.0 ties 5's own mass: it goes after 5 (before the first unit with less)
    assert pair_answers(PAIRED, {5: 6}, head=2, pool=5, share=1.0)[5] == (6, 6.0)


def test_an_answer_outside_the_ranking_enters_it() -> None:
    out = pair_answers(PAIRED, {1: 99}, head=2, pool=2, share=0.5)
    assert out == [(1, 10.0), (2, 9.0), (3, 8.0), (4, 7.0), (5, 6.0), (99, 5.0), (6, 1.0)]


def test_two_raised_answers_keep_the_order_of_their_lent_masses() -> None:
    out = pair_answers(PAIRED, {1: 6, 2: 5}, head=2, pool=2, share=1.0)
    assert [pk for pk, _ in out] == [1, 2, 6, 5, 3, 4]
    assert dict(out)[6] == 10.0 and dict(out)[5] == 9.0


def test_share_zero_changes_nothing_and_negative_settings_are_refused() -> None:
    assert pair_answers(PAIRED, {2: 6}, head=2, pool=6, share=0.0) == PAIRED
    with pytest.raises(ValueError):
        pair_answers(PAIRED, {2: 6}, head=2, pool=6, share=-0.5)
    with pytest.raises(ValueError):
        FusedSettings(answer_pair_share=-1.0)
    with pytest.raises(ValueError):
        FusedSettings(tail_tunnel="grpah", tail_tunnel_weight=1.0)
