"""Pseudo-relevance feedback: words the best evidence shares, added to a second lexical query.

A list question's evidence often shares the topic but not the question's words: "What video games does Nate
play?" is answered by "I won the Valorant tournament", while the best first hits ("I won my first video game
tournament", "I practise for the next tournament") keep saying "tournament". Like RM3 (Abdul-Jaleel et al., 2004),
the feedback takes the words of the fused ranking's first turns, weighs each by the (relative) mass of the turns
holding it and by its rarity in the whole index, and asks BM25 again with the question's words plus the best few.
On the LoCoMo dev split this lifts multi-hop recall_all@20 (see ``fused.py``); the dense analogue (Rocchio on the
question's vector) did not help.

``expansion_terms`` is pure: the caller supplies document frequencies, keyed by the index's stems.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

from sodamem.porter import stem
from sodamem.retrieve.fts_query import query_terms


def index_stem(word: str) -> str:
    """The form SQLite's ``porter`` tokenizer stores (the original Porter algorithm, lower-cased)."""
    return stem(word, "original")


def candidate_terms(texts: Sequence[str], skip: Collection[str]) -> dict[str, str]:
    """``stem -> first surface word`` of the content words of ``texts`` (stopwords, numbers, words of under three
    letters and the stems of ``skip`` left out)."""
    skipped = {index_stem(w) for w in skip}
    out: dict[str, str] = {}
    for text in texts:
        for word in query_terms(text):
            if len(word) < 3 or word.isdigit():
                continue
            key = index_stem(word)
            if key not in skipped:
                out.setdefault(key, word)
    return out


def expansion_terms(
    feedback: Sequence[tuple[str, float]],
    skip: Collection[str],
    doc_freq: Mapping[str, int],
    total_docs: int,
    *,
    n_terms: int,
    min_docs: int = 2,
    terms: Sequence[Mapping[str, str]] | None = None,
) -> list[str]:
    """The ``n_terms`` best words of the feedback ``(text, weight)`` turns, best first.

    A word's score is the summed weight of the feedback turns holding it times its idf, ``log((N + 1) / (df + 1))``.
    Words held by fewer than ``min_docs`` feedback turns, or missing from ``doc_freq``, are left out, as are the
    stems of ``skip`` (the question's own words, the speakers' names). Ties go to the word seen first.
    ``terms``: ``candidate_terms([text], skip)`` of each feedback text, when the caller has them already.
    """
    if n_terms <= 0 or not feedback:
        return []
    weight: dict[str, float] = {}
    holders: dict[str, int] = {}
    surface: dict[str, str] = {}
    per_text = terms if terms is not None else [candidate_terms([text], skip) for text, _ in feedback]
    for (_, w), found in zip(feedback, per_text, strict=True):
        for key, word in found.items():
            surface.setdefault(key, word)
            weight[key] = weight.get(key, 0.0) + w
            holders[key] = holders.get(key, 0) + 1
    scored = []
    for order, (key, w) in enumerate(weight.items()):
        if holders[key] < min_docs or key not in doc_freq:
            continue
        idf = math.log((total_docs + 1) / (doc_freq[key] + 1))
        scored.append((-w * idf, order, surface[key]))
    return [word for _, _, word in sorted(scored)[:n_terms]]
