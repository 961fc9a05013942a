"""How well each evidence sentence supports a question, and whether the evidence answers it at all (pure functions).

Support is the share of the question's content words a sentence holds, each word weighted by how rare it is among
the retrieved turns (a word every hit shares tells nothing). Names of the people talking are left out of it: they
are matched against who said the sentence instead. In a dialogue a question about one person ("What did Melanie
paint?") is answered by that person's own words in the great majority of cases; when the words that match the
question best were said by someone else, the memory most likely holds the other person's story, and the reader
says "not in memory" rather than pinning it on the wrong person.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sodamem.answer.spans import tokens
from sodamem.ingest.pieces import split_pieces
from sodamem.records import SearchHit
from sodamem.retrieve.speaker import named_speakers

SENTENCE_DEPTH = 10  # how many of the top hits the sentences are drawn from
# Sentence ranking, tuned on the LoCoMo dev split: a sentence's own coverage decides; the hit's rank breaks near-ties
# (more weight on rank, or on the whole turn's coverage, or on the piece the search cited, each lowered F1).
RANK_WEIGHT = 0.1
QUESTION_PENALTY = 0.3  # a question back rarely answers


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a retrieved turn: ``hit.turn_text[start:end] == text``."""

    rank: int  # the hit's rank, 0 = best
    hit: SearchHit
    start: int
    end: int
    text: str
    coverage: float  # the weighted share of the question's content words in this sentence, 0..1
    score: float  # coverage and the hit's rank together

    @property
    def speaker(self) -> str:
        return self.hit.speaker

    @property
    def is_question(self) -> bool:
        return self.text.rstrip().endswith("?")


LIST_ITEMS = 3  # a question asking for several things gets spans from up to this many sentences


def speakers_named(question: str, hits: Sequence[SearchHit]) -> tuple[str, ...]:
    """The people talking in ``hits`` whom ``question`` names, in hit order (the search's rule: any word of their
    name, possessives folded, pronouns never)."""
    named = named_speakers(question, {hit.speaker for hit in hits})
    return tuple(dict.fromkeys(hit.speaker for hit in hits if hit.speaker in named))


def word_weights(stems: set[str], hits: Sequence[SearchHit]) -> dict[str, float]:
    """Inverse document frequency of each question stem over the hits' turns (smoothed, always > 0)."""
    turns = [{t.stem for t in tokens(hit.turn_text)} for hit in hits]
    n = len(turns)
    return {s: math.log((n + 1) / (0.5 + sum(s in turn for turn in turns))) + 0.1 for s in stems}


def rank_sentences(
    stems: set[str], hits: Sequence[SearchHit], weights: dict[str, float], depth: int = SENTENCE_DEPTH
) -> list[Sentence]:
    """The sentences of the top ``depth`` hits, best supported first."""
    total = sum(weights.get(s, 0.0) for s in stems) or 1.0

    def coverage(text: str) -> float:
        found = {t.stem for t in tokens(text)} & stems
        return sum(weights.get(s, 0.0) for s in found) / total

    out: list[Sentence] = []
    for rank, hit in enumerate(hits[:depth]):
        for piece in split_pieces(hit.turn_text):
            own = coverage(piece.text)
            score = own + RANK_WEIGHT / (1 + rank)
            if piece.text.rstrip().endswith("?"):
                score -= QUESTION_PENALTY
            out.append(Sentence(rank, hit, piece.char_start, piece.char_end, piece.text, own, score))

    out.sort(key=lambda s: (-s.score, s.rank, s.start))
    return out


def said_by_someone_else(sentences: Sequence[Sentence], named: str, coverage: float, margin: float) -> bool:
    """Whether someone other than ``named`` said the words that match the question (a share ``coverage`` or more of
    them) while ``named``'s best sentence matches at least ``margin`` less.

    Another person's question does not count as their saying it: in a dialogue the other person asks ("What's your
    favourite style of dance?") and the named person answers in words of their own ("Contemporary!"). Counted, such
    questions made the guard abstain on 31 of the 56 answerable LoCoMo dev questions it stopped, against 4 of its
    104 adversarial ones (docs/bench.md)."""
    others = max((s.coverage for s in sentences if s.speaker != named and not s.is_question), default=0.0)
    own = max((s.coverage for s in sentences if s.speaker == named), default=0.0)
    return others >= coverage and own < others - margin


def distinct_turns(sentences: Sequence[Sentence], count: int) -> list[Sentence]:
    """The first ``count`` sentences, at most one per turn."""
    chosen: list[Sentence] = []
    seen: set[tuple[str, int]] = set()
    for sentence in sentences:
        key = (sentence.hit.session_id, sentence.hit.turn_index)
        if key not in seen:
            seen.add(key)
            chosen.append(sentence)
        if len(chosen) == count:
            break
    return chosen
