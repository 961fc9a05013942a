"""The offline reader (no LLM, the embedded default): answers from the evidence, always with citations.

* "when" questions: the resolved date of the best dated fact among the top hits (``7 May 2023 (from 'yesterday',
  said 8 May 2023)``), else a time word resolved in the best turn, else the best turn's session date.
* current-state questions (where someone lives or works, their job, diet, studies, relationship, where they come
  from, a favourite ...; matched by keywords to functional predicates): the active fact's value and what it replaced
  (from ``Memory.history``); with a history cue ("used to", "before") the value it replaced.
* otherwise: the best cited piece.
* abstains ("not in memory") when there is no hit, or the best hit shares no content word with the question and the
  question names no known entity.

Every citation is a literal span: ``quote == turn text[char_start:char_end]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem.answer.types import ABSTAIN_TEXT, Answer, AnswerCitation, Cost
from sodamem.bench.metrics import count_tokens
from sodamem.bench.porter import stem
from sodamem.memory import Memory
from sodamem.records import FactRecord, FactSource, SearchHit
from sodamem.retrieve.evidence import evidence_items
from sodamem.retrieve.fts_query import STOPWORDS
from sodamem.retrieve.pack import EvidenceItem, ResolvedTime, build_pack
from sodamem.retrieve.query import QueryAnalysis, analyze_query
from sodamem.retrieve.temporal import parse_iso

TOP_HITS = 5  # how deep the when-reader looks for a dated fact
_WORD = re.compile(r"[^\W_]+")

# question keywords -> the functional predicates they ask about (a trailing "*" is a prefix)
STATE_KEYWORDS: dict[str, tuple[str, ...]] = {
    "live": ("lives_in",),
    "lives": ("lives_in",),
    "living": ("lives_in",),
    "reside": ("lives_in",),
    "resides": ("lives_in",),
    "moved": ("lives_in",),
    "move": ("lives_in",),
    "work": ("works_at", "job"),
    "works": ("works_at", "job"),
    "working": ("works_at", "job"),
    "employer": ("works_at",),
    "employed": ("works_at",),
    "company": ("works_at",),
    "job": ("job", "works_at"),
    "occupation": ("job",),
    "profession": ("job",),
    "career": ("job",),
    "eat": ("diet",),
    "eats": ("diet",),
    "diet": ("diet",),
    "vegan": ("diet",),
    "vegetarian": ("diet",),
    "study": ("studies_at", "studies"),
    "studies": ("studies_at", "studies"),
    "studying": ("studies_at", "studies"),
    "school": ("studies_at",),
    "university": ("studies_at",),
    "college": ("studies_at",),
    "relationship": ("relationship_status",),
    "married": ("relationship_status",),
    "single": ("relationship_status",),
    "dating": ("relationship_status",),
    "from": ("comes_from", "grew_up_in"),
    "grew": ("grew_up_in",),
    "age": ("age",),
    "old": ("age",),
    "favorite": ("favorite_*", "favourite_*"),
    "favourite": ("favorite_*", "favourite_*"),
}


def answer_offline(
    memory: Memory,
    question: str,
    *,
    now: datetime | None = None,
    budget_tokens: int = 1_000,
    user: str | None = None,
) -> Answer:
    """Answer ``question`` from ``memory`` without an LLM; ``now`` anchors the question's time words."""
    owner = user or memory.user
    asked = now or datetime.now()
    analysis = analyze_query(question, asked, memory.store.conn, owner)
    hits = memory.search(question, k=40, user=owner, now=asked)
    ranked = evidence_items(memory.store.conn, owner, hits)
    pack = build_pack(ranked, budget_tokens, count_tokens)
    kept = set(pack.ids)
    reader = _Reader(memory, owner, question, analysis, hits, [i for i in ranked if i.id in kept], pack.used_tokens)
    return reader.read()


@dataclass(slots=True)
class _Reader:
    memory: Memory
    user: str
    question: str
    analysis: QueryAnalysis
    hits: list[SearchHit]
    items: list[EvidenceItem]  # the pack's items, best first
    evidence_tokens: int

    def read(self) -> Answer:
        if not self.hits or not self.items:
            return self._abstain("no evidence")
        if not self.analysis.entities and not _overlap(self._content_stems(), self.hits[0].turn_text):
            return self._abstain("unrelated")
        if self.analysis.asks_when:
            return self._when()
        state = self._current_state()
        if state is not None:
            return state
        return self._best_piece()

    # -- the three readers ---------------------------------------------------------------------------------------

    def _when(self) -> Answer:
        content = self._content_stems()
        top = {(h.session_id, h.turn_index) for h in self.hits[:TOP_HITS]}
        dated = [i for i in self.items if i.kind == "fact" and i.occurred_start and (i.session_id, i.turn_index) in top]
        if dated:
            rank = {item.id: n for n, item in enumerate(self.items)}
            best = max(dated, key=lambda i: (_overlap(content, i.text), -rank[i.id]))
            expression = next((r.expression for r in self._turn_times(best) if r.start == best.occurred_start), None)
            assert best.occurred_start is not None
            when = human_span(best.occurred_start, best.occurred_end)
            return self._answer(when, [self._item_citation(best)], detail=_said(expression, best.timestamp))
        hit = self.hits[0]
        turn = self._turn_item(hit)
        times = turn.times if turn is not None else ()
        if turn is not None and times:
            first = times[0]
            when = human_span(first.start, first.end)
            return self._answer(
                when, [self._hit_citation(hit, turn.id)], detail=_said(first.expression, turn.timestamp)
            )
        return self._answer(
            human_day(hit.timestamp),
            [self._hit_citation(hit, turn.id if turn else "")],
            detail=f"the day it was said, in session {hit.session_id}",
        )

    def _current_state(self) -> Answer | None:
        wanted = self._state_predicates()
        if not wanted:
            return None
        facts = self._facts_for(wanted)
        if not facts:
            return None
        hit_turns = {(h.session_id, h.turn_index) for h in self.hits}
        active = max(
            facts, key=lambda f: (any((s.session_id, s.turn_index) in hit_turns for s in f.sources), f.mentioned_at)
        )
        chain = self.memory.history(active.id, user=self.user)
        earlier = [f for f in chain if f.id != active.id and f.mentioned_at <= active.mentioned_at]
        previous = earlier[-1] if earlier else None
        value = _value(active)
        if self.analysis.history_intent and previous is not None:
            text = f"{_value(previous)} (before {value})"
        elif previous is not None:
            text = f"{value} (previously {_value(previous)})"
        else:
            text = value
        cited = [active] + ([previous] if previous is not None else [])
        citations = [_fact_citation(f, s) for f in cited for s in f.sources]
        return self._answer(text, citations)

    def _best_piece(self) -> Answer:
        """The best-ranked statement among the top hits that shares a content word with the question (a question
        back rarely answers); the top hit when none does."""
        content = self._content_stems()
        top = self.hits[:TOP_HITS]
        statements = [h for h in top if not h.text.rstrip().endswith("?")]
        hit = next((h for h in statements if _overlap(content, h.text)), statements[0] if statements else top[0])
        turn = self._turn_item(hit)
        return self._answer(" ".join(hit.text.split()), [self._hit_citation(hit, turn.id if turn else "")])

    # -- helpers ---------------------------------------------------------------------------------------------------

    def _content_stems(self) -> set[str]:
        words = {w.lower() for term in self.analysis.content_terms for w in _WORD.findall(term)}
        return {stem(w) for w in words if w not in STOPWORDS}

    def _state_predicates(self) -> tuple[str, ...]:
        words = [w.lower() for w in _WORD.findall(self.question)]
        found: dict[str, None] = {}
        for word in words:
            for predicate in STATE_KEYWORDS.get(word, ()):
                found.setdefault(predicate)
        return tuple(found)

    def _facts_for(self, wanted: tuple[str, ...]) -> list[FactRecord]:
        def fits(fact: FactRecord) -> bool:
            return any(fact.predicate.startswith(p[:-1]) if p.endswith("*") else fact.predicate == p for p in wanted)

        subjects = [m.name for m in self.analysis.entities]
        pools = [self.memory.facts(status="active", subject=s, user=self.user) for s in subjects] or [
            self.memory.facts(status="active", user=self.user)
        ]
        return [f for pool in pools for f in pool if fits(f) and f.polarity and f.sources]

    def _turn_item(self, hit: SearchHit) -> EvidenceItem | None:
        return next(
            (
                i
                for i in self.items
                if i.kind == "turn" and (i.session_id, i.turn_index) == (hit.session_id, hit.turn_index)
            ),
            None,
        )

    def _turn_times(self, item: EvidenceItem) -> tuple[ResolvedTime, ...]:
        turn = next(
            (
                i
                for i in self.items
                if i.kind == "turn" and (i.session_id, i.turn_index) == (item.session_id, item.turn_index)
            ),
            None,
        )
        return turn.times if turn is not None else ()

    def _turn_text(self, session_id: str, turn_index: int) -> str:
        for hit in self.hits:
            if (hit.session_id, hit.turn_index) == (session_id, turn_index):
                return hit.turn_text
        raise KeyError((session_id, turn_index))

    def _item_citation(self, item: EvidenceItem) -> AnswerCitation:
        text = self._turn_text(item.session_id, item.turn_index)
        return AnswerCitation(
            item.id,
            item.session_id,
            item.turn_index,
            item.turn_id,
            item.char_start,
            item.char_end,
            text[item.char_start : item.char_end],
        )

    def _hit_citation(self, hit: SearchHit, evidence_id: str) -> AnswerCitation:
        return AnswerCitation(
            evidence_id,
            hit.session_id,
            hit.turn_index,
            hit.turn_id,
            hit.char_start,
            hit.char_end,
            hit.turn_text[hit.char_start : hit.char_end],
        )

    def _answer(self, text: str, citations: list[AnswerCitation], detail: str = "") -> Answer:
        unique = tuple(dict.fromkeys(citations))
        return Answer(
            question=self.question,
            answer=text,
            detail=detail,
            citations=unique,
            steps=1,
            cost=Cost(),
            flags=("offline",),
            evidence_tokens=self.evidence_tokens,
        )

    def _abstain(self, why: str) -> Answer:
        return Answer(
            question=self.question,
            answer=ABSTAIN_TEXT,
            abstained=True,
            steps=1,
            cost=Cost(),
            flags=("offline", f"abstain:{why}"),
            evidence_tokens=self.evidence_tokens,
        )


def _overlap(stems: set[str], text: str) -> int:
    return len(stems & {stem(w.lower()) for w in _WORD.findall(text)})


def _value(fact: FactRecord) -> str:
    return fact.object or fact.text


def _fact_citation(fact: FactRecord, source: FactSource) -> AnswerCitation:
    return AnswerCitation(
        f"F{fact.id}",
        source.session_id,
        source.turn_index,
        source.turn_id,
        source.char_start,
        source.char_end,
        source.quote,
    )


def _said(expression: str | None, said_at: str) -> str:
    said = human_day(said_at)
    if expression:
        return f"from '{' '.join(expression.split())}', said {said}"
    return f"said {said}"


def _day(value: datetime) -> str:
    return f"{value.day} {value:%B %Y}"


def human_day(value: str) -> str:
    """``2023-05-08T13:56:00`` -> ``8 May 2023`` (LoCoMo's own form); unparsable values as given."""
    parsed = parse_iso(value)
    return _day(parsed) if parsed is not None else value


def human_span(start: str, end: str | None) -> str:
    """An interval as a person says it: ``7 May 2023``, ``May 2023``, ``2023`` or ``1 May 2023 to 7 May 2023``."""
    first = parse_iso(start)
    after = parse_iso(end) if end else None
    if first is None:
        return start
    if after is None or after <= first:
        return _day(first)
    last = after - timedelta(microseconds=1)
    if first.date() == last.date():
        return _day(first)
    whole_days = (first.hour, first.minute, after.hour, after.minute) == (0, 0, 0, 0)
    if whole_days and first.day == 1 and after.day == 1:
        if (first.year, first.month) == (last.year, last.month):
            return f"{first:%B %Y}"
        if (first.month, after.month, after.year) == (1, 1, first.year + 1):
            return f"{first.year}"
    return f"{_day(first)} to {_day(last)}"
