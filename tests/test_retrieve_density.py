"""Connection-density fusion: hand-computed masses and properties."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.retrieve.density import (
    PRESETS,
    Contribution,
    ContributionTable,
    DensitySettings,
    FusedUnit,
    fuse_density,
    preset,
    ranked,
    ranked_table,
)
from sodamem.retrieve.presets import TUNED_DENSITY as TUNED
from tests import density_reference as reference

TUNNELS = (
    "graph",
    "bm25",
    "dense",
    "bm25_piece",
    "dense_piece",
    "fact",
    "bm25_prf",
    "entity",
    "answer_type",
    "bridge",
    "echo",
)


def masses(fused: list[FusedUnit]) -> dict[int, float]:
    return {f.unit: f.mass for f in fused}


def discount(rank: int) -> float:
    return 21 / (20 + rank)  # the default rank_k = 20, normalised so rank 1 counts 1


def test_one_first_place_hit_adds_its_tunnel_weight() -> None:
    fused = fuse_density([Contribution(7, "bm25"), Contribution(8, "dense"), Contribution(9, "bm25", rank=3)])
    assert masses(fused) == pytest.approx({7: 1.0, 8: 0.6, 9: discount(3)})
    assert [f.unit for f in fused] == [7, 9, 8]
    assert fused[1].explain == (f"bm25 hop 0 rank 3 +{discount(3):.4f}",)
    assert fused[0].tunnels == ("bm25",)


def test_two_tunnels_agreeing_beat_one_tunnel_at_a_better_rank() -> None:
    fused = fuse_density(
        [
            Contribution(1, "bm25", rank=1),  # alone, at the top of its ranking
            Contribution(2, "bm25", rank=5),  # fifth in two tunnels
            Contribution(2, "dense", rank=5),
        ]
    )
    assert masses(fused) == pytest.approx({1: 1.0, 2: 1.6 * discount(5)})  # 1.344
    assert [f.unit for f in fused] == [2, 1]
    assert fused[0].tunnels == ("bm25", "dense")


def test_hop_decay() -> None:
    fused = fuse_density(
        [Contribution(1, "graph", hop=0), Contribution(2, "graph", hop=1), Contribution(3, "graph", 2)]
    )
    assert masses(fused) == pytest.approx({1: 1.0, 2: 0.5, 3: 0.25})
    steeper = fuse_density([Contribution(3, "graph", hop=2, rank=4)], DensitySettings(hop_decay=0.2))
    assert masses(steeper) == pytest.approx({3: 0.04 * discount(4)})


def test_repeats_of_one_tunnel_count_best_first_and_decay() -> None:
    facts = [Contribution(1, "fact", rank=3), Contribution(1, "fact", rank=1), Contribution(1, "fact", rank=2)]
    expected = 0.8 * (discount(1) + 0.5 * discount(2) + 0.25 * discount(3))
    assert masses(fuse_density(facts)) == pytest.approx({1: expected})
    assert masses(fuse_density(facts, DensitySettings(repeat_decay=0.0))) == pytest.approx({1: 0.8})
    summed = 0.8 * (discount(1) + discount(2) + discount(3))
    assert masses(fuse_density(facts, DensitySettings(repeat_decay=1.0))) == pytest.approx({1: summed})


def test_spill_to_adjacent_turns() -> None:
    contributions = [Contribution(10, "bm25"), Contribution(11, "dense")]
    neighbors = {10: [9, 11], 11: [10, 12]}
    fused = fuse_density(contributions, neighbors=neighbors)
    assert masses(fused) == pytest.approx({10: 1.0 + 0.15 * 0.6, 11: 0.6 + 0.15, 9: 0.15, 12: 0.15 * 0.6})
    nine = next(f for f in fused if f.unit == 9)
    assert nine.explain == ("spill from 10 +0.1500",) and nine.tunnels == ()
    assert masses(fuse_density(contributions, DensitySettings(spill=0.0), neighbors)) == pytest.approx({10: 1, 11: 0.6})
    # Spill does not cascade, and a unit listed as its own neighbour gets nothing extra.
    assert masses(fuse_density([Contribution(1, "bm25")], neighbors={1: [1, 2], 2: [3]})) == pytest.approx(
        {1: 1.0, 2: 0.15}
    )


def test_bonus_is_multiplicative_and_never_creates_evidence() -> None:
    contributions = [Contribution(1, "bm25"), Contribution(2, "bm25", rank=2), Contribution(3, "dense")]
    neighbors = {1: [4]}
    fused = fuse_density(contributions, neighbors=neighbors, bonus={2: 0.5, 3: -2.0, 4: 1.0, 5: 3.0})
    assert masses(fused) == pytest.approx({1: 1.0, 2: 1.5 * discount(2), 4: 2 * 0.15})
    assert [f.unit for f in fused] == [2, 1, 4]  # the bonus lifted 2 over 1; 3 (factor clamped to 0) is gone
    assert next(f for f in fused if f.unit == 2).explain[-1] == "bonus x1.500"


def test_ties_are_broken_by_unit_whatever_the_input_order() -> None:
    a = [Contribution(5, "bm25"), Contribution(3, "bm25"), Contribution(4, "graph")]
    assert [f.unit for f in fuse_density(a)] == [3, 4, 5]
    assert fuse_density(a) == fuse_density(list(reversed(a)))


def test_zero_weight_turns_a_tunnel_off() -> None:
    settings = DensitySettings().with_weights(dense=0.0)
    assert masses(fuse_density([Contribution(1, "dense"), Contribution(2, "bm25")], settings)) == {2: 1.0}
    assert DensitySettings().tunnel_weights["dense"] == 0.6  # with_weights copies


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tunnel"):
        fuse_density([Contribution(1, "telepathy")])
    with pytest.raises(ValueError):
        Contribution(1, "bm25", rank=0)
    with pytest.raises(ValueError):
        Contribution(1, "bm25", hop=-1)
    with pytest.raises(ValueError):
        DensitySettings(spill=1.5)
    with pytest.raises(ValueError):
        DensitySettings(tunnel_weights={"bm25": -1.0})
    with pytest.raises(ValueError, match="unknown preset"):
        preset("nope")


def test_presets() -> None:
    assert set(PRESETS) == {"default", "lexical-heavy", "graph-heavy"}
    for settings in PRESETS.values():
        assert set(settings.tunnel_weights) == set(TUNNELS)
    assert preset("default") == DensitySettings()
    lexical, graph = preset("lexical-heavy"), preset("graph-heavy")
    assert lexical.weight("bm25") > lexical.weight("graph") and graph.weight("graph") > graph.weight("bm25")


def test_ranked_numbers_a_ranking_and_keeps_each_unit_once() -> None:
    assert ranked("bm25", [(4, 9.0), (2, 7.5), (4, 3.0), (8, 1.0)], hop=1) == [
        Contribution(4, "bm25", 1, 1, 9.0, 1.0),
        Contribution(2, "bm25", 1, 2, 7.5, 0.8125),
        Contribution(8, "bm25", 1, 3, 1.0, 0.0),
    ]


contribution = st.builds(
    Contribution,
    unit=st.integers(0, 12),
    tunnel=st.sampled_from(TUNNELS),
    hop=st.integers(0, 3),
    rank=st.integers(1, 60),
    score=st.floats(-5, 5, allow_nan=False),
)
neighbor_map = st.dictionaries(st.integers(0, 12), st.lists(st.integers(0, 14), max_size=3), max_size=8)
bonus_map = st.dictionaries(st.integers(0, 14), st.floats(-1.5, 3.0, allow_nan=False), max_size=8)
settings_st = st.builds(
    DensitySettings,
    hop_decay=st.floats(0, 1),
    rank_k=st.floats(0, 100),
    repeat_decay=st.floats(0, 1),
    spill=st.floats(0, 1),
)


@given(st.lists(contribution, max_size=25), settings_st, neighbor_map, bonus_map)
def test_masses_are_positive_and_sorted(
    contributions: list[Contribution],
    settings: DensitySettings,
    neighbors: dict[int, list[int]],
    bonus: dict[int, float],
) -> None:
    fused = fuse_density(contributions, settings, neighbors, bonus)
    assert all(f.mass > 0 for f in fused)
    assert [(-f.mass, f.unit) for f in fused] == sorted((-f.mass, f.unit) for f in fused)
    assert len({f.unit for f in fused}) == len(fused)


@given(st.lists(contribution, max_size=25), contribution, st.integers(-1, 24), settings_st, neighbor_map, bonus_map)
def test_adding_a_contribution_never_lowers_a_mass(
    contributions: list[Contribution],
    extra: Contribution,
    twin: int,
    settings: DensitySettings,
    neighbors: dict[int, list[int]],
    bonus: dict[int, float],
) -> None:
    if twin >= 0 and contributions:  # often hit a (unit, tunnel) pair that is already there: the repeat path
        like = contributions[twin % len(contributions)]
        extra = dataclasses.replace(extra, unit=like.unit, tunnel=like.tunnel)
    before = masses(fuse_density(contributions, settings, neighbors, bonus))
    after = masses(fuse_density([*contributions, extra], settings, neighbors, bonus))
    for unit, mass in before.items():
        assert after.get(unit, 0.0) >= mass - 1e-9 * max(1.0, mass)


@given(st.lists(contribution, max_size=25), st.randoms(use_true_random=False), neighbor_map)
def test_input_order_does_not_matter(
    contributions: list[Contribution], rng: random.Random, neighbors: dict[int, list[int]]
) -> None:
    shuffled = list(contributions)
    rng.shuffle(shuffled)
    assert fuse_density(shuffled, neighbors=neighbors) == fuse_density(contributions, neighbors=neighbors)


def test_score_share_blends_the_rank_discount_with_the_scaled_score() -> None:
    # dense: three hits whose cosines say the first is far ahead of the other two
    hits = ranked("dense", [(1, 0.80), (2, 0.41), (3, 0.40)])
    assert [c.relative for c in hits] == pytest.approx([1.0, 0.025, 0.0])
    by_rank = masses(fuse_density(hits))
    blended = masses(fuse_density(hits, DensitySettings(score_share=0.5)))
    assert blended[1] == pytest.approx(0.6)  # the best hit still adds its tunnel's weight
    assert blended[2] == pytest.approx(0.6 * (0.5 * discount(2) + 0.5 * 0.025))
    assert blended[3] == pytest.approx(0.6 * 0.5 * discount(3))
    assert blended[2] < by_rank[2] and blended[3] < by_rank[3]
    # a near tie keeps the runner-up close: scores, not only ranks, decide the gap
    tie = masses(fuse_density(ranked("dense", [(1, 0.80), (2, 0.79), (3, 0.40)]), DensitySettings(score_share=1.0)))
    assert tie[2] == pytest.approx(0.6 * 0.39 / 0.40)
    assert 3 not in tie  # with the score alone, a tunnel's last hit adds nothing (and a unit of no mass is left out)


def test_relative_scores_of_a_flat_ranking_are_all_one() -> None:
    assert [c.relative for c in ranked("bm25", [(1, 2.0), (2, 2.0)])] == [1.0, 1.0]
    assert ranked("bm25", []) == []
    with pytest.raises(ValueError, match="relative"):
        Contribution(1, "bm25", relative=1.5)
    with pytest.raises(ValueError, match="score_share"):
        DensitySettings(score_share=-0.1)


def test_group_share_adds_the_best_other_unit_of_the_group_by_hand() -> None:
    contributions = [Contribution(1, "bm25"), Contribution(2, "bm25", rank=2), Contribution(3, "dense")]
    groups = {1: 10, 2: 10, 3: 20}
    fused = fuse_density(contributions, groups=groups, group_share=0.5)
    m1, m2, m3 = 1.0, discount(2), 0.6
    # 1 is its session's best: it gains from the runner-up (2); 2 gains from 1; 3 is alone in its session.
    assert masses(fused) == pytest.approx({1: m1 + 0.5 * m2, 2: m2 + 0.5 * m1, 3: m3})
    assert fused[0].explain[-1] == f"session +{0.5 * m2:.4f}"
    assert masses(fuse_density(contributions, groups=groups)) == masses(fuse_density(contributions))  # share 0


@given(
    st.lists(contribution, max_size=25),
    neighbor_map,
    bonus_map,
    st.dictionaries(st.integers(0, 14), st.integers(0, 3)),
    st.floats(0, 1),
    st.integers(0, 30),
)
def test_a_limit_returns_the_same_first_units_with_the_same_explanations(
    contributions: list[Contribution],
    neighbors: dict[int, list[int]],
    bonus: dict[int, float],
    groups: dict[int, int],
    share: float,
    limit: int,
) -> None:
    whole = fuse_density(contributions, None, neighbors, bonus, groups=groups, group_share=share)
    assert (
        fuse_density(contributions, None, neighbors, bonus, groups=groups, group_share=share, limit=limit)
        == (whole[:limit])
    )
    assert all(f.mass > 0 for f in whole)


# The columnar fusion against the per-contribution loop it replaced (tests/density_reference.py): the same units,
# the same masses to the last bit, the same explanations, so rankings cannot move.
exact_contribution = st.builds(
    Contribution,
    unit=st.integers(0, 12),
    tunnel=st.sampled_from(TUNNELS),
    hop=st.integers(0, 3),
    rank=st.integers(1, 60),
    score=st.floats(-5, 5, allow_nan=False),
    relative=st.floats(0, 1),
)
blended_settings = st.builds(
    DensitySettings,
    hop_decay=st.floats(0, 1),
    rank_k=st.floats(0, 100),
    repeat_decay=st.floats(0, 1),
    spill=st.floats(0, 1),
    score_share=st.floats(0, 1),
)


@given(
    st.lists(exact_contribution, max_size=40),
    blended_settings,
    neighbor_map,
    bonus_map,
    st.one_of(st.none(), st.dictionaries(st.integers(0, 14), st.integers(0, 3))),
    st.floats(0, 1),
    st.one_of(st.none(), st.integers(0, 30)),
)
def test_the_columnar_fusion_equals_the_reference_loop_exactly(
    contributions: list[Contribution],
    settings: DensitySettings,
    neighbors: dict[int, list[int]],
    bonus: dict[int, float],
    groups: dict[int, int] | None,
    share: float,
    limit: int | None,
) -> None:
    args = (settings, neighbors, bonus)
    expected = reference.fuse_density(contributions, *args, groups=groups, group_share=share, limit=limit)
    assert fuse_density(contributions, *args, groups=groups, group_share=share, limit=limit) == expected
    table = ContributionTable.of(contributions)
    assert fuse_density(table, *args, groups=groups, group_share=share, limit=limit) == expected


@given(
    st.dictionaries(
        st.sampled_from(TUNNELS),
        st.lists(st.tuples(st.integers(0, 30), st.floats(-50, 50, allow_nan=False)), max_size=30),
        max_size=7,
    ),
    st.integers(0, 2),
)
def test_ranked_tables_equal_the_reference_ranking(rankings: dict[str, list[tuple[int, float]]], hop: int) -> None:
    tables = [ranked_table(tunnel, ranking, hop=hop) for tunnel, ranking in rankings.items()]
    expected = [c for tunnel, ranking in rankings.items() for c in reference.ranked(tunnel, ranking, hop=hop)]
    assert ContributionTable.concat(tables).contributions() == expected
    assert [ranked(t, r, hop=hop) for t, r in rankings.items()] == [
        reference.ranked(t, r, hop=hop) for t, r in rankings.items()
    ]
    settings = dataclasses.replace(TUNED, spill=0.3)
    assert fuse_density(ContributionTable.concat(tables), settings) == reference.fuse_density(expected, settings)


def test_the_reference_is_the_fusion_a_search_runs() -> None:
    # Sanity of the pin itself: the reference computes what the module docstring says (a hand-checked case).
    fused = reference.fuse_density([Contribution(7, "bm25"), Contribution(9, "bm25", rank=3)])
    assert masses(fused) == pytest.approx({7: 1.0, 9: discount(3)})
    assert fuse_density(ContributionTable.of([])) == [] == reference.fuse_density([])
