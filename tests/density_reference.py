"""The pure-Python density fusion that ``sodamem.retrieve.density`` replaced by a columnar (numpy) one, kept
verbatim as the reference the new one must match exactly (``tests/test_retrieve_density.py``): same units, same
masses to the last bit, same explanations."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from sodamem.retrieve.density import Contribution, DensitySettings, FusedUnit


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
