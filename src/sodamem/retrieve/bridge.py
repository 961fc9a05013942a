"""Bridge tunnel: turns close to the first evidence, found from each of the best first hits in turn.

A multi-hop or list question's evidence is spread over sessions, and its items resemble one another more than
they resemble the question: "What has Melanie painted?" is answered by "I painted that lake sunrise", "Here's a
photo of my horse painting" and "our latest work from last weekend [image: a painting of a sunset]". Once the first
pass has found one of them, that turn is a better query for its siblings than the question is. So each of the
first ``seeds`` fused turns (the seeds) asks the dense index once, with its own vector blended with the question's
(``mix``: the question's share), and a turn's bridge score is its best cosine over the seeds, each cosine scaled by
its seed's mass relative to the first. The seeds themselves are left out: the tunnel adds turns beside the first
evidence, it does not pile more mass on it.

Unlike Rocchio feedback on the question's vector (the centroid of the first hits; tried and dropped, see
docs/bench.md), each seed asks on its own, so one seed's topic ("horse painting") is not averaged away by the
others. ``blend``, ``bridge_ranking`` are pure; the caller asks the index.

**Near-duplicates** (``discount_duplicates``): a thresholded redundancy penalty on the final ranking, for the top k
filled with copies of one remark ("I won a video game tournament" six times). The discount is off by default, and
so is the bridge over the whole ranking: neither won under cross-validation (docs/bench.md, "Evidence-seeded
mechanisms and the name-free dense query"). The bridge feeds the ranks after the first 10 by default
(``bridge_tail_only``, tail.py), which CV chose in 7 of 7 folds (docs/bench.md, "The ranking's tail").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np


def blend(question: np.ndarray, seed: np.ndarray, mix: float) -> np.ndarray:
    """``mix * question + (1 - mix) * seed``, both taken as unit vectors, normalised (a zero sum stays zero)."""
    if not 0.0 <= mix <= 1.0:
        raise ValueError(f"mix must be within [0, 1], got {mix}")
    q = _unit(np.asarray(question, dtype=np.float32).reshape(-1))
    s = _unit(np.asarray(seed, dtype=np.float32).reshape(-1))
    return _unit(mix * q + (1.0 - mix) * s)


def bridge_ranking(
    hits: Mapping[int, Sequence[tuple[int, float]]],
    seed_weights: Mapping[int, float],
    limit: int,
) -> list[tuple[int, float]]:
    """Turns by their best ``seed weight * cosine`` over the seeds, best first (ties by turn id), the seeds left
    out, the first ``limit`` kept. ``hits``: each seed's nearest turns ``(turn, cosine)``; ``seed_weights``: each
    seed's weight (its mass relative to the first seed's; a seed missing here weighs 1)."""
    best: dict[int, float] = {}
    for seed, found in hits.items():
        w = seed_weights.get(seed, 1.0)
        for pk, cosine in found:
            if pk in hits:
                continue
            score = w * cosine
            if score > best.get(pk, -np.inf):
                best[pk] = score
    return sorted(best.items(), key=lambda x: (-x[1], x[0]))[: max(limit, 0)]


SEED_SCAN = 5  # with distinct sessions, seeds are looked for among the first ``seeds * SEED_SCAN`` units


def distinct_session_seeds(order: Sequence[int], session_of: Mapping[int, int], seeds: int) -> list[int]:
    """The first ``seeds`` of ``order`` whose sessions differ (each session's best; a unit missing from
    ``session_of`` is its own session): a list's items sit in different sessions, and a session's second-best
    turn is usually its best's neighbour, already reached by the spill."""
    out: list[int] = []
    seen: set[int] = set()
    for pk in order if seeds > 0 else ():
        session = session_of.get(pk, -pk - 1)
        if session not in seen:
            out.append(pk)
            seen.add(session)
            if len(out) >= seeds:
                break
    return out


def _unit(v: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def discount_duplicates(
    ranking: Sequence[tuple[int, float]],
    vectors: Mapping[int, np.ndarray],
    threshold: float,
    penalty: float,
) -> list[tuple[int, float]]:
    """``ranking`` (``(turn, mass)``, best first) with every near-duplicate of a better turn discounted: a turn
    whose cosine with some turn ranked above it (as first given) reaches ``threshold`` keeps ``1 - penalty`` of its
    mass; then re-sorted (ties keep the given order). A turn without a vector is never a duplicate."""
    if penalty <= 0 or threshold > 1 or not ranking:
        return list(ranking)
    pks = [pk for pk, _ in ranking if pk in vectors]
    matrix = np.stack([np.asarray(vectors[pk], dtype=np.float32).reshape(-1) for pk in pks]) if pks else None
    row = {pk: i for i, pk in enumerate(pks)}
    sims = matrix @ matrix.T if matrix is not None else None
    out = []
    for position, (pk, mass) in enumerate(ranking):
        i = row.get(pk)
        # rows follow the ranking's order, so the turns above this one with a vector are rows 0..i-1
        duplicate = i is not None and sims is not None and i > 0 and float(sims[i, :i].max()) >= threshold
        out.append((position, pk, mass * (1.0 - penalty) if duplicate else mass))
    out.sort(key=lambda x: (-x[2], x[0]))
    return [(pk, mass) for _, pk, mass in out]
