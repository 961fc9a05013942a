"""Turn lines cut to the sentences that match the question, so a small evidence budget holds more turns.

A LoCoMo turn runs to 40-60 tokens, and a 500-token pack holds about eight of them; a question usually needs one
sentence of each. ``focus_items`` cuts every turn line longer than ``cap_tokens`` to one contiguous run of its
sentences: the sentence that holds most of the question's words (each word weighted by how rare it is among the
retrieved turns, ``answer.support.word_weights``; the sentence the search cited wins ties), grown by whichever
neighbour matches better while the run fits the cap. The cut line is still a literal span of the turn (its
``char_start``/``char_end`` say which), so a citation of it re-reads, and its time words are resolved afresh from
the words kept. Facts and short turns pass through unchanged.

On the tuning slices of the LoCoMo dev split (questions 301-420 of the round-robin sample, ``sodamem bench packs``)
a 25-token cap raised the share of gold evidence turns in the 500-token pack from 0.68/0.75 to 0.80/0.77, yet
Qwen2.5-Coder-1.5B answered worse from those packs (-0.024 F1 over 91 questions: more lines, more wrong list items),
so it is off unless asked for (docs/bench.md, twenty-fourth session).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from sodamem.answer.spans import question_stems, tokens
from sodamem.answer.support import word_weights
from sodamem.ingest.pieces import split_pieces
from sodamem.records import SearchHit
from sodamem.retrieve.pack import EvidenceItem

CITED_PIECE_BONUS = 0.05  # breaks ties towards the sentence the search matched


def focus_items(
    items: Sequence[EvidenceItem],
    hits: Sequence[SearchHit],
    question: str,
    cap_tokens: int,
    count_tokens: Callable[[str], int],
) -> list[EvidenceItem]:
    """``items`` with every turn line longer than ``cap_tokens`` cut to its best-matching sentences (see above)."""
    stems = question_stems(question)
    weights = word_weights(stems, hits)
    cited = {(hit.session_id, hit.turn_index): (hit.char_start, hit.char_end) for hit in hits}
    out = []
    for item in items:
        if item.kind != "turn" or item.char_start != 0 or count_tokens(item.text) <= cap_tokens:
            out.append(item)
            continue
        start, end = focus_span(
            item.text, weights, cap_tokens, count_tokens, cited.get((item.session_id, item.turn_index))
        )
        if (start, end) == (0, len(item.text)):
            out.append(item)
        else:
            out.append(
                dataclasses.replace(item, text=item.text[start:end], char_start=start, char_end=end, resolved=None)
            )
    return out


def focus_span(
    text: str,
    weights: Mapping[str, float],
    cap_tokens: int,
    count_tokens: Callable[[str], int],
    cited: tuple[int, int] | None = None,
) -> tuple[int, int]:
    """The ``(start, end)`` of the run of ``text``'s sentences kept (see the module docstring); the whole text when
    it has one sentence. The best sentence is kept even when it alone is longer than the cap."""
    pieces = split_pieces(text)
    if len(pieces) <= 1:
        return 0, len(text)

    def score(index: int) -> float:
        piece = pieces[index]
        found = {t.stem for t in tokens(piece.text)} & weights.keys()
        bonus = CITED_PIECE_BONUS if cited and piece.char_start < cited[1] and cited[0] < piece.char_end else 0.0
        return sum(weights[s] for s in found) + bonus

    scores = [score(i) for i in range(len(pieces))]
    best = max(range(len(pieces)), key=lambda i: (scores[i], -i))
    low = high = best
    used = count_tokens(pieces[best].text)
    while True:
        # the better-matching neighbour first (the following one on a tie); stop when neither fits
        neighbours = [j for j in (low - 1, high + 1) if 0 <= j < len(pieces)]
        neighbours.sort(key=lambda j: (-scores[j], -j))
        grown = False
        for j in neighbours:
            cost = count_tokens(pieces[j].text)
            if used + cost <= cap_tokens:
                used += cost
                low, high = min(low, j), max(high, j)
                grown = True
                break
        if not grown:
            return pieces[low].char_start, pieces[high].char_end
