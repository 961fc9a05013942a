"""Echo tunnel: turns that share the first evidence's rare words, for the ranks after the head.

A list question's items are told in several sessions, often in the same words: "We roast marshmallows, tell
stories around the campfire" (session 10) and "We roasted marshmallows and shared stories" (session 16) for "What
does Melanie do with her family on hikes?"; "I just discovered that I can make coconut milk icecream" and "Coconut
milk ice cream is one of my favorites" for "What are Nate's favorite desserts?"; "My old area was hit by a flood"
and "improving my old area, West County" for "What area was hit by a flood?". Once the first pass has found one of
them, its rare words find the others better than the question's words do. So the first pass's best turn (the seed)
lends its words whose idf is at least ``min_idf``, and a turn scores the summed idf of the seed's rare words it
holds (a coordination match weighted by rarity, not BM25: a long turn holding one rare word is not lifted by
repeating it, a short one is not lifted by being short); turns of another speaker than the seed's are left out
where asked (a list's items are one person's).

The dense bridge (bridge.py) already asks with the seed's vector; a vector blurs the seed's topic ("a family
trip") where its rare words keep the particulars ("marshmallows"). Like the bridge it feeds the ranks after a head
only (tail.splice_tail), here the first 15 (``echo_head``): at 10 the echo's hits pushed other categories' evidence
out of ranks 11-20. On by default since cross-validation chose it in 6 of 7 folds (docs/bench.md, "The echo
tunnel"). ``seed_words`` and ``echo_ranking`` are pure: the caller gives document frequencies and each candidate's
stems.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping


def seed_words(
    stems: Collection[str], doc_freq: Mapping[str, int], total_docs: int, min_idf: float
) -> dict[str, float]:
    """``stem -> idf`` for the seed's stems whose idf, ``log((N + 1) / (df + 1))``, reaches ``min_idf``; stems
    missing from ``doc_freq`` (held by no turn) are left out."""
    out = {}
    for stem in stems:
        df = doc_freq.get(stem)
        if df is None:
            continue
        idf = math.log((total_docs + 1) / (df + 1))
        if idf >= min_idf:
            out[stem] = idf
    return out


def echo_ranking(
    words: Mapping[str, float],
    candidates: Mapping[int, Collection[str]],
    exclude: Collection[int],
    limit: int,
) -> list[tuple[int, float]]:
    """Candidates by the summed idf of ``words`` (``stem -> idf``) they hold, best first (ties by turn id), those
    holding none and those in ``exclude`` (the seed) left out, the first ``limit`` kept. ``candidates``: each
    candidate turn's stems."""
    scored = []
    for pk, stems in candidates.items():
        if pk in exclude:
            continue
        score = sum(idf for stem, idf in words.items() if stem in stems)
        if score > 0:
            scored.append((pk, score))
    return sorted(scored, key=lambda x: (-x[1], x[0]))[: max(limit, 0)]
