"""Whether what a present-tense yes/no question asks still holds ("Do I still go to pottery?"): the latest sentence
that says as much of it as the best one, and the endings said of what it names wherever they rank ("I stopped going
to pottery", "We did cancel Lisbon", "I left the band" for a band called The Wee Hours)."""

from __future__ import annotations

from datetime import datetime

from sodamem import instants
from sodamem.answer.evidence_view import overlap
from sodamem.answer.sentence_checks import stems_of
from sodamem.answer.spans import tokens
from sodamem.answer.support import LIST_ITEMS, Sentence, distinct_turns, rank_sentences, word_weights
from sodamem.answer.yes_no import asks_in_the_present, ended_by_now, says_it_ended
from sodamem.memory import Memory
from sodamem.retrieve.temporal import parse_iso


def latest_saying_as_much(
    question: str,
    best: Sentence,
    sentences: list[Sentence],
    asked: set[str],
    described: frozenset[str],
    now: datetime | None = None,
) -> Sentence:
    """For a yes/no question in the present tense ("Do I eat meat?"), the latest of the top sentences that say as
    much of it as ``best`` does: "I no longer eat meat" in February answers it, not "I eat meat every day" in
    January."""
    if not asks_in_the_present(question):
        return best
    enough = overlap(asked, best.text)
    peers = [
        s
        for s in distinct_turns(sentences, LIST_ITEMS) + [s for s in sentences if described & stems_of(s.text)]
        if not s.is_question
        and s.speaker == best.speaker
        and (
            (overlap(asked, s.text) >= enough and _opening(s.text) == _opening(best.text))  # not "My kids eat"
            # "I stopped the lessons", "I left the band" (a band called The Wee Hours)
            or (overlap(asked | described, s.text) and says_it_ended(s.text, question, described))
            or (now is not None and overlap(asked, s.text) and ended_by(s, question, now))  # "stopping ... in June"
        )
    ]
    return max(peers, key=lambda s: (instants.sort_key(s.hit.timestamp), s.hit.turn_index, s is best), default=best)


def ended_by(sentence: Sentence, question: str, now: datetime) -> bool:
    """Whether ``sentence`` ends what ``question`` asks on a day said with it that has passed by ``now``
    (``yes_no.ended_by_now``, read from when the sentence was said)."""
    said_at = parse_iso(sentence.hit.timestamp)
    return said_at is not None and ended_by_now(sentence.text, question, said_at, now)


def endings_of(memory: Memory, user: str, question: str, now: datetime, words: set[str]) -> list[Sentence]:
    """For "Am I still in The Wee Hours?" where "a band called The Wee Hours" was said: the sentences that end the
    band ("I left the band on Saturday"), found by a search for the noun, which the question never says; for "Are we
    still going to Lisbon?", those that end Lisbon ("We did cancel Lisbon"), wherever they rank."""
    if not words or not asks_in_the_present(question):
        return []
    described = frozenset(words)
    found = memory.search(" ".join(sorted(words)), k=10, user=user, now=now)
    ranked = rank_sentences(words, found, word_weights(words, found))
    return [s for s in ranked if overlap(words, s.text) and says_it_ended(s.text, question, described)]


def _opening(text: str) -> str:
    """The first word of a sentence, lower-cased: who it is about, roughly ("i", "my", "tom")."""
    words = tokens(text)
    return words[0].word if words else ""
