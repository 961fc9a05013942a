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
    seen: set[int] = set()
    firsts: list[tuple[int, float]] = []
    for unit, score in ranking:
        if unit not in seen:
            seen.add(unit)
            firsts.append((unit, score))
    if not firsts:
        return []
    high, low = max(s for _, s in firsts), min(s for _, s in firsts)
    span = high - low
    return [
        Contribution(unit, tunnel, hop, i, score, (score - low) / span if span > 0 else 1.0)
        for i, (unit, score) in enumerate(firsts, start=1)
    ]


# One step of a unit's mass: (tunnel, hop, rank, added), ("spill", from unit, flow), ("bonus", factor) or
# ("session", gain).
_Step = tuple[str, int, int, float] | tuple[str, int, float] | tuple[str, float]


def fuse_density(
    contributions: Iterable[Contribution],
    settings: DensitySettings | None = None,
    neighbors: Mapping[int, Sequence[int]] | None = None,
    bonus: Mapping[int, float] | None = None,
    *,
    groups: Mapping[int, int] | None = None,
    group_share: float = 0.0,
    limit: int | None = None,
) -> list[FusedUnit]:
    """Units by mass, best first (see the module docstring for the formula); the first ``limit`` only, when given.

    Masses are plain floats until the end: the explanations are written for the units returned, not for the
    thousands of candidates a search fuses (that formatting was a fifth of a search's time)."""
    settings = settings or DensitySettings()
    # A canonical order makes the float sums, hence the result, independent of the input order.
    scored = sorted(
        ((settings.mass(c), c) for c in contributions),
        key=lambda mc: (mc[1].unit, mc[1].tunnel, -mc[0], mc[1].hop, mc[1].rank, mc[1].score),
    )
    direct: dict[int, float] = {}
    steps: dict[int, list[_Step]] = {}  # explained at the end, for the units returned
    tunnels: dict[int, set[str]] = {}
    repeats: dict[tuple[int, str], int] = {}
    for base, c in scored:
        i = repeats.get((c.unit, c.tunnel), 0)
        repeats[(c.unit, c.tunnel)] = i + 1
        added = base * settings.repeat_decay**i
        direct[c.unit] = direct.get(c.unit, 0.0) + added
        steps.setdefault(c.unit, []).append((c.tunnel, c.hop, c.rank, added))
        tunnels.setdefault(c.unit, set()).add(c.tunnel)
    mass = dict(direct)
    if neighbors and settings.spill > 0:
        for unit in sorted(direct):
            flow = settings.spill * direct[unit]
            if flow <= 0:
                continue
            for other in sorted(set(neighbors.get(unit, ())) - {unit}):
                mass[other] = mass.get(other, 0.0) + flow
                steps.setdefault(other, []).append(("spill", unit, flow))
    if bonus:
        for unit in sorted(mass):
            b = bonus.get(unit, 0.0)
            if b:
                factor = max(0.0, 1.0 + b)
                mass[unit] *= factor
                steps[unit].append(("bonus", factor))
    if groups is not None and group_share > 0:
        mass = _share_groups(mass, groups, group_share, steps)
    order = sorted((unit for unit, m in mass.items() if m > 0), key=lambda unit: (-mass[unit], unit))
    return [
        FusedUnit(unit, mass[unit], _explained(steps[unit]), tuple(sorted(tunnels.get(unit, ()))))
        for unit in (order if limit is None else order[:limit])
    ]


def _share_groups(
    mass: dict[int, float], groups: Mapping[int, int], share: float, steps: dict[int, list[_Step]]
) -> dict[int, float]:
    """Each unit gains ``share`` times the best mass among the *other* units of its group (units without a group
    gain nothing): the runner-up's when the unit is its group's best."""
    top_two: dict[int, tuple[float, float]] = {}
    for unit, m in mass.items():
        if unit in groups:
            best, runner_up = top_two.get(groups[unit], (0.0, 0.0))
            top_two[groups[unit]] = (m, best) if m > best else (best, max(runner_up, m))
    out = dict(mass)
    for unit, m in mass.items():
        if unit in groups:
            best, runner_up = top_two[groups[unit]]
            gain = share * (runner_up if m == best else best)
            out[unit] = m + gain
            steps[unit].append(("session", gain))
    return out


def _explained(steps: Sequence[_Step]) -> tuple[str, ...]:
    """E.g. "bm25 hop 0 rank 3 +0.9130", "spill from 12 +0.1500", "bonus x1.500", "session +0.2000"."""
    out = []
    for step in steps:
        match step:
            case (tunnel, hop, rank, added):
                out.append(f"{tunnel} hop {hop} rank {rank} +{added:.4f}")
            case ("spill", source, flow):
                out.append(f"spill from {source} +{flow:.4f}")
            case ("bonus", factor):
                out.append(f"bonus x{factor:.3f}")
            case (_, gain):
                out.append(f"session +{gain:.4f}")
    return tuple(out)
