"""Rank fusion: pure functions over rankings of hashable ids."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

RRF_K = 60  # the constant of Cormack et al. (2009)


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[K]], *, weights: Sequence[float] | None = None, rrf_k: int = RRF_K
) -> list[tuple[K, float]]:
    """Fuse rankings (best first) by sum of ``weight / (rrf_k + rank)``; ties keep first-seen order.

    An id repeated within one ranking counts at its best rank only.
    """
    if weights is None:
        weights = [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    scores: dict[K, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        seen: set[K] = set()
        rank = 0
        for item in ranking:
            if item in seen:
                continue
            seen.add(item)
            rank += 1
            scores[item] = scores.get(item, 0.0) + weight / (rrf_k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores.items(), key=lambda pair: (-pair[1], order[pair[0]]))
