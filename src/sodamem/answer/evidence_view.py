"""The evidence an offline answer is read from (the search hits and the pack's items), and how it cites them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sodamem.answer.spans import tokens
from sodamem.answer.support import Sentence
from sodamem.answer.types import AnswerCitation
from sodamem.porter import stem
from sodamem.records import FactRecord, FactSource, SearchHit
from sodamem.retrieve.pack import EvidenceItem

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class EvidenceView:
    hits: list[SearchHit]
    items: list[EvidenceItem]  # the pack's items, best first

    def fact_words(self, fact: EvidenceItem) -> str:
        """A fact's text and the words it quotes ("I stopped last weekend" says "stop"; its text may not)."""
        try:
            quote = self.turn_text(fact.session_id, fact.turn_index)[fact.char_start : fact.char_end]
        except KeyError:
            quote = ""
        return f"{fact.text} {quote}"

    def turn_item(self, hit: SearchHit) -> EvidenceItem | None:
        return self.turn_item_at(hit.session_id, hit.turn_index)

    def turn_item_at(self, session_id: str, turn_index: int) -> EvidenceItem | None:
        return next(
            (i for i in self.items if i.kind == "turn" and (i.session_id, i.turn_index) == (session_id, turn_index)),
            None,
        )

    def turn_text(self, session_id: str, turn_index: int) -> str:
        for hit in self.hits:
            if (hit.session_id, hit.turn_index) == (session_id, turn_index):
                return hit.turn_text
        raise KeyError((session_id, turn_index))

    def item_citation(self, item: EvidenceItem) -> AnswerCitation:
        text = self.turn_text(item.session_id, item.turn_index)
        return item_citation(item, text[item.char_start : item.char_end])

    def words_citation(self, fact: EvidenceItem, words: str | None) -> list[AnswerCitation]:
        """The time words a fact was dated by, where they stand in its turn outside its quote ("on the 28th of
        March ... a birthday trip to Lisbon"): the answer's date must be read in what it cites. The occurrence
        nearest the quote."""
        text = self.turn_text(fact.session_id, fact.turn_index)
        turn = self.turn_item_at(fact.session_id, fact.turn_index)
        where = (turn.id if turn is not None else fact.id, fact.session_id, fact.turn_index, fact.turn_id)
        return _words_outside(text, fact.char_start, fact.char_end, words, where, fact.timestamp)

    def hit_words_citation(self, hit: SearchHit, evidence_id: str, words: str | None) -> list[AnswerCitation]:
        """The time words a hit's answer was read from, where they stand in its turn outside the hit's words ("dad
        rang. hes moving to York in july": the hit "dad rang.", dated by "in july")."""
        where = (evidence_id, hit.session_id, hit.turn_index, hit.turn_id)
        return _words_outside(hit.turn_text, hit.char_start, hit.char_end, words, where, hit.timestamp)

    def hit_citation(self, hit: SearchHit, evidence_id: str) -> AnswerCitation:
        return AnswerCitation(
            evidence_id,
            hit.session_id,
            hit.turn_index,
            hit.turn_id,
            hit.char_start,
            hit.char_end,
            hit.turn_text[hit.char_start : hit.char_end],
            hit.timestamp,
        )

    def sentence_citation(self, sentence: Sentence) -> AnswerCitation:
        hit = sentence.hit
        turn = self.turn_item(hit)
        return AnswerCitation(
            turn.id if turn else "",
            hit.session_id,
            hit.turn_index,
            hit.turn_id,
            sentence.start,
            sentence.end,
            hit.turn_text[sentence.start : sentence.end],
            hit.timestamp,
        )


def fact_citation(fact: FactRecord, source: FactSource) -> AnswerCitation:
    return AnswerCitation(
        f"F{fact.id}",
        source.session_id,
        source.turn_index,
        source.turn_id,
        source.char_start,
        source.char_end,
        source.quote,
        source.timestamp,
    )


def overlap(stems: set[str], text: str) -> int:
    """How many of ``stems`` the words of ``text`` say."""
    return len(stems & ({stem(w.lower()) for w in _WORD.findall(text)} | {t.stem for t in tokens(text)}))


def _words_outside(
    text: str, start: int, end: int, words: str | None, where: tuple[str, str, int, str], timestamp: str
) -> list[AnswerCitation]:
    """``words`` cited where they stand in ``text`` outside ``text[start:end]``, the occurrence nearest it."""
    if not words or words in text[start:end]:
        return []
    starts = [m.start() for m in re.finditer(re.escape(words), text)]
    if not starts:
        return []
    at = min(starts, key=lambda s: abs(s - start))
    return [AnswerCitation(*where, at, at + len(words), words, timestamp)]


def item_citation(item: EvidenceItem, quote: str) -> AnswerCitation:
    """A pack item cited by its id, with the words it quotes."""
    where = (item.session_id, item.turn_index, item.turn_id)
    return AnswerCitation(item.id, *where, item.char_start, item.char_end, quote, item.timestamp)
