"""Connection-density fusion: evidence units accumulate mass from every hit that reaches them.

A unit is a turn (with its pieces and the facts derived from it), named by its id. Each tunnel reports
``Contribution``s: which unit, by which tunnel, at which hop (0 = a direct hit; 1, 2 = reached by expansion) and
at which rank within that tunnel's ranking (1 = best). A contribution adds

    weight[tunnel] * hop_decay ** hop * (rank_k + 1) / (rank_k + rank)

so a tunnel's first direct hit adds exactly its weight and later ranks are discounted smoothly. Tunnel scores are
not comparable across tunnels (BM25 vs cosine vs graph), but within one tunnel they say how far apart its hits are:
with ``score_share`` s > 0 the discount becomes ``(1 - s) * rank discount + s * relative``, where ``relative`` is
the score min-max scaled over that tunnel's ranking (1 for its best hit, 0 for its last; the convex combination of
Bruch et al., "An Analysis of Fusion Functions for Hybrid Retrieval", 2023, applied per tunnel).

Several contributions of *one* tunnel to one unit (say three matched facts of the same turn) count best first
with ``repeat_decay ** i`` (i = 0, 1, ...), so one tunnel alone cannot pile up mass; contributions of *different*
tunnels simply add: two tunnels agreeing on a unit beat one tunnel alone, even at a better rank.

Then, in order:
1. **spill**: every unit passes ``spill`` times its own (pre-spill) mass to each of its ``neighbors`` (the adjacent
   turns of the same session, given by the caller). It keeps its own mass; spill does not cascade.
2. **bonus** (the soft temporal bonus, or any other): multiplicative, ``mass * max(0, 1 + bonus[unit])``. A bonus
   scales evidence but never creates it, so a unit in the question's time window with no hit stays out, and a
   unit outside the window is merely outranked, never dropped (a bonus in [-1, 0) is a soft penalty).

3. **group share** (optional; the caller's sessions): every unit gains ``group_share`` times the best mass among
   the other units of its group (evidence clusters in sessions).

Units of zero mass are left out; the rest are sorted by mass, ties by unit id, whatever the input order.
The whole computation is order-independent and monotone: adding a contribution never lowers any unit's mass.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np
from numpy.typing import NDArray

DEFAULT_TUNNEL_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "graph": 1.0,  # graph/entity tunnel, turn-level
        "bm25": 1.0,  # BM25 over turns
        "dense": 0.6,  # embedding neighbours over turns
        "bm25_piece": 0.5,  # BM25 over pieces, landed on their turns
        "dense_piece": 0.3,  # embedding neighbours over pieces, landed on their turns
        "fact": 0.8,  # BM25/dense over facts, landed on the turns they are derived from
        "bm25_prf": 0.0,  # BM25 again, the question's words plus feedback words of the first evidence (fused.py)
        "entity": 0.0,  # the question's entities' turns across all sessions, ranked among themselves (aggregate.py)
        "answer_type": 0.0,  # turns naming an instance of the type a list question asks for (aggregate.py)
        "bridge": 0.0,  # turns nearest to the first pass's best turns, each blended with the question (bridge.py)
        "echo": 0.0,  # turns holding the rare words of the first pass's best turn (echo.py)
    }
)


@dataclass(frozen=True, slots=True)
class Contribution:
    unit: int  # turn id
    tunnel: str  # a key of DensitySettings.tunnel_weights
    hop: int = 0  # 0: direct hit; n: reached by n expansion steps
    rank: int = 1  # 1-based rank within the tunnel's ranking
    score: float = 0.0  # the tunnel's own score, for the explanation
    relative: float = 1.0  # the score min-max scaled within its tunnel's ranking (1 = the best, 0 = the last)

    def __post_init__(self) -> None:
        if self.hop < 0 or self.rank < 1:
            raise ValueError(f"hop must be >= 0 and rank >= 1, got hop={self.hop}, rank={self.rank}")
        if not 0.0 <= self.relative <= 1.0:
            raise ValueError(f"relative must be within [0, 1], got {self.relative}")


@dataclass(frozen=True)
class DensitySettings:
    tunnel_weights: Mapping[str, float] = field(default_factory=lambda: DEFAULT_TUNNEL_WEIGHTS)
    hop_decay: float = 0.5  # a contribution at hop h counts hop_decay ** h
    rank_k: float = 20.0  # rank discount (rank_k + 1) / (rank_k + rank)
    repeat_decay: float = 0.5  # the i-th further contribution of one tunnel to one unit counts repeat_decay ** i
    spill: float = 0.15  # share of a unit's mass that each adjacent turn receives
    score_share: float = 0.0  # the discount blends rank (1 - share) with the min-max scaled score (share)

    def __post_init__(self) -> None:
        if any(w < 0 for w in self.tunnel_weights.values()):
            raise ValueError("tunnel weights must be >= 0")
        for name in ("hop_decay", "repeat_decay", "spill", "score_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be within [0, 1]")
        if self.rank_k < 0:
            raise ValueError("rank_k must be >= 0")

    def weight(self, tunnel: str) -> float:
        try:
            return self.tunnel_weights[tunnel]
        except KeyError:
            known = ", ".join(sorted(self.tunnel_weights))
            raise ValueError(f"unknown tunnel {tunnel!r} (known: {known})") from None

    def mass(self, contribution: Contribution) -> float:
        """What one contribution adds on its own (before repeat decay, spill and bonus)."""
        discount = (self.rank_k + 1.0) / (self.rank_k + contribution.rank)
        if self.score_share > 0:
            discount = (1.0 - self.score_share) * discount + self.score_share * contribution.relative
        return self.weight(contribution.tunnel) * self.hop_decay**contribution.hop * discount

    def with_weights(self, **weights: float) -> DensitySettings:
        """A copy with some tunnel weights changed (0 turns a tunnel off)."""
        return replace(self, tunnel_weights=MappingProxyType({**self.tunnel_weights, **weights}))


@dataclass(frozen=True, slots=True)
class FusedUnit:
    unit: int
    mass: float
    explain: tuple[str, ...]  # e.g. "bm25 hop 0 rank 3 +0.9130", "spill from 12 +0.1500", "bonus x1.500"
    tunnels: tuple[str, ...]  # the tunnels that reached the unit directly, sorted


PRESETS: dict[str, DensitySettings] = {
    "default": DensitySettings(),
    "lexical-heavy": DensitySettings(
        tunnel_weights=MappingProxyType(
            {
                "graph": 0.6,
                "bm25": 1.5,
                "dense": 0.4,
                "bm25_piece": 0.8,
                "dense_piece": 0.2,
                "fact": 1.0,
                "bm25_prf": 0.0,
                "entity": 0.0,
                "answer_type": 0.0,
                "bridge": 0.0,
                "echo": 0.0,
            }
        )
    ),
    "graph-heavy": DensitySettings(
        tunnel_weights=MappingProxyType(
            {
                "graph": 1.6,
                "bm25": 0.8,
                "dense": 0.5,
                "bm25_piece": 0.4,
                "dense_piece": 0.25,
                "fact": 1.0,
                "bm25_prf": 0.0,
                "entity": 0.0,
                "answer_type": 0.0,
                "bridge": 0.0,
                "echo": 0.0,
            }
        ),
        hop_decay=0.6,
    ),
}


def preset(name: str) -> DensitySettings:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})") from None


def ranked(tunnel: str, ranking: Iterable[tuple[int, float]], *, hop: int = 0) -> list[Contribution]:
    """Contributions from a ``(unit, score)`` ranking, best first; a repeated unit counts at its best rank."""
    return ranked_table(tunnel, ranking, hop=hop).contributions()


@dataclass(frozen=True, slots=True, eq=False)
class ContributionTable:
    """Contributions as columns, one row each: what a search fuses (~700 contributions, twice), where one
    ``Contribution`` object and one Python step per contribution were most of the fusion's time."""

    names: tuple[str, ...]  # the tunnels; ``tunnel`` holds indices into it
    unit: NDArray[np.int64]
    tunnel: NDArray[np.int64]
    hop: NDArray[np.int64]
    rank: NDArray[np.int64]
    score: NDArray[np.float64]
    relative: NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.unit)

    @classmethod
    def of(cls, contributions: Iterable[Contribution]) -> ContributionTable:
        rows = list(contributions)
        names = tuple(sorted({c.tunnel for c in rows}))
        code = {name: i for i, name in enumerate(names)}
        return cls(
            names,
            np.array([c.unit for c in rows], dtype=np.int64),
            np.array([code[c.tunnel] for c in rows], dtype=np.int64),
            np.array([c.hop for c in rows], dtype=np.int64),
            np.array([c.rank for c in rows], dtype=np.int64),
            np.array([c.score for c in rows], dtype=np.float64),
            np.array([c.relative for c in rows], dtype=np.float64),
        )

    @classmethod
    def concat(cls, tables: Sequence[ContributionTable]) -> ContributionTable:
        names = tuple(sorted({name for table in tables for name in table.names}))
        code = {name: i for i, name in enumerate(names)}
        recoded = [np.array([code[n] for n in t.names], dtype=np.int64)[t.tunnel] for t in tables if len(t)]
        if not recoded:
            return ContributionTable.of([])
        parts = [t for t in tables if len(t)]
        return cls(
            names,
            np.concatenate([t.unit for t in parts]),
            np.concatenate(recoded),
            np.concatenate([t.hop for t in parts]),
            np.concatenate([t.rank for t in parts]),
            np.concatenate([t.score for t in parts]),
            np.concatenate([t.relative for t in parts]),
        )

    def contributions(self) -> list[Contribution]:
        columns = (self.unit, self.tunnel, self.hop, self.rank, self.score, self.relative)
        return [
            Contribution(u, self.names[t], h, r, s, rel)
            for u, t, h, r, s, rel in zip(*(c.tolist() for c in columns), strict=True)
        ]


def ranked_table(tunnel: str, ranking: Iterable[tuple[int, float]], *, hop: int = 0) -> ContributionTable:
    """``ranked`` as a table: rank i (1-based) in ranking order, each unit at its first (best) place, the scores
    min-max scaled (all 1 when they are equal)."""
    pairs = list(ranking)
    units = np.array([u for u, _ in pairs], dtype=np.int64)
    scores = np.array([s for _, s in pairs], dtype=np.float64)
    if len(pairs):
        firsts = np.sort(np.unique(units, return_index=True)[1])
        units, scores = units[firsts], scores[firsts]
    n = len(units)
    span = float(scores.max() - scores.min()) if n else 0.0
    relative = (scores - scores.min()) / span if span > 0 else np.ones(n)
    return ContributionTable(
        (tunnel,),
        units,
        np.zeros(n, dtype=np.int64),
        np.full(n, hop, dtype=np.int64),
        np.arange(1, n + 1, dtype=np.int64),
        scores,
        relative,
    )


def fuse_density(
    contributions: Iterable[Contribution] | ContributionTable,
    settings: DensitySettings | None = None,
    neighbors: Mapping[int, Sequence[int]] | None = None,
    bonus: Mapping[int, float] | None = None,
    *,
    groups: Mapping[int, int] | None = None,
    group_share: float = 0.0,
    limit: int | None = None,
) -> list[FusedUnit]:
    """Units by mass, best first (see the module docstring for the formula); the first ``limit`` only, when given.

    Computed over columns, in the order and with the operations of the per-contribution loop it replaced
    (``tests/density_reference.py``), so every mass is the same float: sums run in one canonical order (by unit,
    tunnel, mass descending, hop, rank, score), which also makes the result independent of the input order.
    Explanations are written only for the units returned, not for the hundreds of candidates a search fuses."""
    settings = settings or DensitySettings()
    table = contributions if isinstance(contributions, ContributionTable) else ContributionTable.of(contributions)
    weights = np.array([settings.weight(name) for name in table.names], dtype=np.float64)
    if not len(table):
        return []
    base = _base_masses(table, weights, settings)
    # lexsort's last key is the first: unit, tunnel (codes follow the names' order), -mass, hop, rank, score.
    order = np.lexsort((table.score, table.rank, table.hop, -base, table.tunnel, table.unit))
    unit, tunnel = table.unit[order], table.tunnel[order]
    # The i-th contribution of one tunnel to one unit counts repeat_decay ** i.
    starts = np.ones(len(order), dtype=bool)
    starts[1:] = (unit[1:] != unit[:-1]) | (tunnel[1:] != tunnel[:-1])
    positions = np.arange(len(order))
    repeat = positions - np.maximum.accumulate(np.where(starts, positions, 0))
    added = base[order] * _powers(settings.repeat_decay, repeat)
    direct_units, inverse = np.unique(unit, return_inverse=True)
    direct = np.zeros(len(direct_units))
    np.add.at(direct, inverse, added)  # in order, one element at a time: the same sums as a loop

    sources, targets, flows = _spill_edges(direct_units, direct, neighbors, settings.spill)
    units = np.union1d(direct_units, targets)
    mass = np.zeros(len(units))
    mass[np.searchsorted(units, direct_units)] = direct
    np.add.at(mass, np.searchsorted(units, targets), flows)
    unit_list: list[int] = units.tolist()
    factor = np.ones(len(units))
    boosted = np.zeros(len(units), dtype=bool)
    if bonus:
        b = np.array([bonus.get(u, 0.0) for u in unit_list], dtype=np.float64)
        boosted = b != 0
        factor = np.maximum(0.0, 1.0 + b)
        mass = np.where(boosted, mass * factor, mass)
    gain = np.zeros(len(units))
    grouped = np.zeros(len(units), dtype=bool)
    if groups is not None and group_share > 0:
        group_of = np.array([groups.get(u, -1) for u in unit_list], dtype=np.int64)
        grouped = np.array([u in groups for u in unit_list], dtype=bool)
        gain = _group_gains(mass, group_of, grouped, group_share)
        mass = np.where(grouped, mass + gain, mass)

    kept = np.flatnonzero(mass > 0)
    best_first = kept[np.lexsort((units[kept], -mass[kept]))]
    chosen = best_first if limit is None else best_first[:limit]
    out = []
    for i in chosen.tolist():
        u = unit_list[i]
        lo, hi = np.searchsorted(unit, [u, u + 1]).tolist()
        steps = [
            f"{table.names[t]} hop {h} rank {r} +{a:.4f}"
            for t, h, r, a in zip(
                tunnel[lo:hi].tolist(),
                table.hop[order[lo:hi]].tolist(),
                table.rank[order[lo:hi]].tolist(),
                added[lo:hi].tolist(),
                strict=True,
            )
        ]
        into = np.flatnonzero(targets == u)
        steps += [f"spill from {s} +{f:.4f}" for s, f in zip(sources[into].tolist(), flows[into].tolist(), strict=True)]
        if boosted[i]:
            steps.append(f"bonus x{float(factor[i]):.3f}")
        if grouped[i]:
            steps.append(f"session +{float(gain[i]):.4f}")
        reached = tuple(sorted({table.names[t] for t in tunnel[lo:hi].tolist()}))
        out.append(FusedUnit(u, float(mass[i]), tuple(steps), reached))
    return out


def _powers(x: float, exponents: NDArray[np.int64]) -> NDArray[np.float64]:
    """``x ** e`` per element, each computed as Python computes it (the few distinct exponents, once each)."""
    distinct = np.unique(exponents)
    values = np.array([x ** int(e) for e in distinct.tolist()], dtype=np.float64)
    return values[np.searchsorted(distinct, exponents)]


def _base_masses(
    table: ContributionTable, weights: NDArray[np.float64], settings: DensitySettings
) -> NDArray[np.float64]:
    """``DensitySettings.mass`` of every row, with the same operations in the same order."""
    discount = (settings.rank_k + 1.0) / (settings.rank_k + table.rank.astype(np.float64))
    if settings.score_share > 0:
        discount = (1.0 - settings.score_share) * discount + settings.score_share * table.relative
    return weights[table.tunnel] * _powers(settings.hop_decay, table.hop) * discount


def _spill_edges(
    units: NDArray[np.int64], direct: NDArray[np.float64], neighbors: Mapping[int, Sequence[int]] | None, spill: float
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """``(source, target, flow)`` of every spill, by source then target: each unit of positive mass passes
    ``spill`` times its direct mass to each of its neighbours (itself excluded)."""
    if not neighbors or spill <= 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    # Every (unit, neighbour) pair, then the same filtering and order as a loop over sorted(set(others) - {unit}).
    get = neighbors.get
    unit_list: list[int] = units.tolist()
    lists = [get(u, ()) for u in unit_list]
    counts = np.array([len(others) for others in lists], dtype=np.int64)
    sources = np.repeat(units, counts)
    targets = np.fromiter((o for others in lists for o in others), dtype=np.int64, count=int(counts.sum()))
    flow_of = spill * direct
    flows = np.repeat(flow_of, counts)
    keep = (flows > 0) & (targets != sources)
    sources, targets, flows = sources[keep], targets[keep], flows[keep]
    order = np.lexsort((targets, sources))
    sources, targets, flows = sources[order], targets[order], flows[order]
    fresh = np.ones(len(sources), dtype=bool)
    fresh[1:] = (sources[1:] != sources[:-1]) | (targets[1:] != targets[:-1])
    return sources[fresh], targets[fresh], flows[fresh]


def _group_gains(
    mass: NDArray[np.float64], group_of: NDArray[np.int64], grouped: NDArray[np.bool_], share: float
) -> NDArray[np.float64]:
    """Each grouped unit gains ``share`` times the best mass among the *other* units of its group: the
    runner-up's (which equals the best on a tie) when the unit is its group's best, 0 when it is alone."""
    gain = np.zeros(len(mass))
    members = np.flatnonzero(grouped)
    if not len(members):
        return gain
    by_group = members[np.lexsort((-mass[members], group_of[members]))]  # each group's masses, best first
    group = group_of[by_group]
    first = np.ones(len(by_group), dtype=bool)
    first[1:] = group[1:] != group[:-1]
    heads = np.flatnonzero(first)
    best = mass[by_group[heads]]
    second_exists = np.append(heads[1:], len(by_group)) - heads > 1
    runner_up = np.where(second_exists, mass[by_group[np.minimum(heads + 1, len(by_group) - 1)]], 0.0)
    which = np.cumsum(first) - 1  # each member's group, as an index into heads
    m = mass[by_group]
    gain[by_group] = share * np.where(m == best[which], runner_up[which], best[which])
    return gain
