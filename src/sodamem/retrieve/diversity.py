"""Maximal marginal relevance over the fused ranking: a list question wants different items, not one item five times.

"What video games does Nate play?" ranks six turns about winning "a video game tournament" above the turns that
name the games. MMR (Carbonell and Goldstein, 1998) re-picks the head of the ranking greedily, each time the unit
with the best ``relevance - penalty * max cosine to the units already picked``, where relevance is the unit's mass
over the best mass. Units without a vector keep their relevance unpenalised. Pure: the caller supplies vectors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from sodamem.embed.base import Vectors


def mmr_order(
    units: Sequence[tuple[int, float]], vectors: Mapping[int, Vectors], penalty: float, head: int
) -> list[int]:
    """The ids of ``units`` (``(id, mass)`` best first) with the first ``head`` re-picked by MMR, the rest as given."""
    if penalty <= 0 or len(units) < 2:
        return [u for u, _ in units]
    top, rest = list(units[:head]), [u for u, _ in units[head:]]
    best = max(m for _, m in top) or 1.0
    relevance = {u: m / best for u, m in top}
    closest = dict.fromkeys(relevance, 0.0)  # max cosine to a picked unit
    picked: list[int] = []
    remaining = [u for u, _ in top]
    while remaining:
        choice = max(remaining, key=lambda u: (relevance[u] - penalty * closest[u], -remaining.index(u)))
        picked.append(choice)
        remaining.remove(choice)
        v = vectors.get(choice)
        if v is None:
            continue
        for u in remaining:
            w = vectors.get(u)
            if w is not None:
                closest[u] = max(closest[u], float(np.dot(v, w)))
    return picked + rest
