"""The offline reader (no LLM, the embedded default): answers from the evidence, always with citations.

* "when" questions: the resolved date of the best dated fact among the top hits that shares a word with the
  question (``7 May 2023``, detail "from
  'yesterday', said 8 May 2023"), else a time word resolved in the best turn, else the best turn's session date. A
  date read from a word whose reading was a choice carries that word anchored on the day said: ``5 June 2023 to 11
  June 2023 (the week before 14 June 2023)`` (``answer/said_as.py``).
* current-state questions (where someone lives or works, their job, diet, studies, relationship, where they come
  from, a favourite ...; matched by keywords to functional predicates): the active fact's value and what it replaced
  (from ``Memory.history``); with a history cue ("used to", "before") the value it replaced. When the question's
  subject is a relative ("Where does my brother live?"), the relative's facts: those of the person a relation fact
  names ("my brother Tom") -- that relation fact is cited too -- or of the role itself ("user's brother").
* otherwise: a short span of the best supported sentence (``answer/support.py`` ranks the sentences of the top
  hits, ``answer/spans.py`` cuts the span: the noun phrase after the matched verb, a number for "how many", a name
  for "who", a quoted title, "yes"/"no" for a yes/no question); several spans, comma-separated, when the question
  asks for several things. The whole sentence and its speaker are in ``Answer.detail``, the sentence is cited.
  When the question names one of the people talking, only that person's sentences are read.
* abstains ("not in memory") when there is no hit, when the best hit shares no content word with the question and
  the question names no known entity (the asker's "I" and "my" name nobody), or when the question names one of the
  people talking and the words that match it were said by someone else (the usual shape of a question about a thing
  that never happened to them); when a state question asks about a relative nobody has mentioned ("my mother"), or
  every sentence left says another person's state or another state ("Where does Alex work?" is not read from "I
  work at Southmead Hospital"; ``StateReader.others_states``).

Every citation is a literal span: ``quote == turn text[char_start:char_end]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime

from sodamem import instants
from sodamem.answer.activities import asks_for_activities, asks_for_sports, current_activities
from sodamem.answer.antecedents import antecedent_citation
from sodamem.answer.cited_date import asks_for_a_date
from sodamem.answer.corrections import CorrectedSentence, corrected_sentence, says_instead_of
from sodamem.answer.date_gaps import asks_a_gap, gap_text
from sodamem.answer.dates import human_day, human_span
from sodamem.answer.ending_date import ending_dated
from sodamem.answer.evidence_view import EvidenceView, fact_citation, overlap
from sodamem.answer.medications import read_medications
from sodamem.answer.pets import pets_asked, pets_counted, pets_died
from sodamem.answer.plans_kept import plan_outcome
from sodamem.answer.predicate_facts import FactAnswer, by_predicate, named_by_relation, relations_of
from sodamem.answer.question_form import plain_question
from sodamem.answer.question_words import SPEAKER_CHECK_DEPTH, QuestionWords
from sodamem.answer.relation_at import asks_role_at, role_at
from sodamem.answer.relation_yes_no import relation_held
from sodamem.answer.relatives import (
    asks_whom_dating,
    relation_said,
    relative_asked_about,
    relative_mentioned,
    relative_named_asked,
    relative_said,
    relatives_asked_by_name,
    relatives_named,
)
from sodamem.answer.sentence_checks import (
    ANSWER_TYPES,
    names_someone_new,
    says_a_place,
    stems_of,
)
from sodamem.answer.spans import (
    QuestionKind,
    answer_span,
    asks_for_a_list,
    asks_for_a_place,
    question_kind,
    question_stems,
)
from sodamem.answer.state import state_predicates
from sodamem.answer.state_questions import asks_about_housemates
from sodamem.answer.state_reader import USER_ROLE, StateReader
from sodamem.answer.state_sentences import asks_of_me, state_sentences
from sodamem.answer.still_holds import ended_by, endings_of, latest_saying_as_much
from sodamem.answer.support import (
    LIST_ITEMS,
    Sentence,
    distinct_turns,
)
from sodamem.answer.types import ABSTAIN_TEXT, Answer, AnswerCitation, Cost, Reading
from sodamem.answer.when_reader import (
    GOT_IT,
    UNDATED_DETAIL,
    Dated,
    asks_how_long_ago,
    asks_how_long_had,
    asks_when_ahead,
    date_of,
    time_ago,
)
from sodamem.answer.yes_no import (
    described_as,
    only_supposed,
    other_senses,
    specifics,
    yes_or_no,
)
from sodamem.bench.metrics import count_tokens
from sodamem.ingest.entities import same_person
from sodamem.ingest.extract.rules_vocabulary import NON_UNIQUE_RELS, REL_SINGLE
from sodamem.llm.prompts.read_answer import who_is_asked
from sodamem.memory import Memory
from sodamem.porter import stem
from sodamem.records import FactRecord, SearchHit
from sodamem.retrieve.evidence import evidence_items
from sodamem.retrieve.pack import EvidenceItem, build_pack
from sodamem.retrieve.query import QueryAnalysis, analyze_query
from sodamem.retrieve.search import SearchMode
from sodamem.retrieve.temporal import parse_iso

__all__ = ["answer_offline", "human_day", "human_span", "said_by_another_speaker"]

SENTENCE_DEPTH = 10  # the answer is read from the sentences of this many top hits


def answer_offline(
    memory: Memory,
    question: str,
    *,
    now: datetime | None = None,
    budget_tokens: int = 1_000,
    user: str | None = None,
) -> Answer:
    """Answer ``question`` from ``memory`` without an LLM; ``now`` anchors the question's time words. The readers
    read it without the words around it that ask nothing ("Remind me, who is Imogen?"); the answer keeps it as asked."""
    bare = plain_question(question)
    answer = _answer_offline(memory, bare, now=now, budget_tokens=budget_tokens, user=user)
    return answer if bare == question else replace(answer, question=question)


def _answer_offline(
    memory: Memory, question: str, *, now: datetime | None, budget_tokens: int, user: str | None
) -> Answer:
    owner = user or memory.user
    asked = memory.asked_at(now)
    reader = _reader(memory, question, owner, asked, budget_tokens)
    gap = asks_a_gap(question)
    if gap is None:
        return reader.read()
    # "How many days after arriving in Stavanger did I start at Havbrink?": each day as its own when-question
    first, second = (_reader(memory, q, owner, asked, budget_tokens).dated() for q in (gap.first, gap.second))
    days = [parse_iso(d.start) if d is not None else None for d in (first, second)]
    if first is None or second is None or days[0] is None or days[1] is None:
        return reader._abstain("undated")
    if first.start == second.start:
        return reader._abstain("one day for both")  # both read from one day: "... on the 3rd. A week later I started"
    text = gap_text(gap, days[0], days[1])
    if text is None:
        return reader._abstain("dates disagree")
    return reader._answer(text, [*first.citations, *second.citations], f"{first.detail}; {second.detail}")


def _reader(memory: Memory, question: str, owner: str, asked: datetime, budget_tokens: int) -> _Reader:
    # The question is the user's own, passed on by an agent: its "I" and "my" are the speaker "user" (a log of user
    # and assistant turns); where no speaker is called that (LoCoMo's named people), nothing changes.
    analysis = _known_then(memory, owner, analyze_query(question, asked, memory.store, owner, asker=USER_ROLE))
    hits = memory.search(question, k=40, user=owner, now=asked)
    ranked = evidence_items(memory.store, owner, hits)
    pack = build_pack(ranked, budget_tokens, count_tokens)
    kept = set(pack.ids)
    items = [i for i in ranked if i.id in kept]
    return _Reader(memory, owner, question, analysis, hits, items, pack.used_tokens, asked)


def said_by_another_speaker(
    memory: Memory,
    question: str,
    *,
    now: datetime | None = None,
    user: str | None = None,
    mode: SearchMode | str = SearchMode.AUTO,
) -> bool:
    """Whether the question names one of the people talking while the words that match it were said by someone
    else: the offline reader's rule for abstaining (the usual shape of a question about a thing that never happened
    to that person). The LLM loop asks it first, over hits of its own search ``mode``."""
    owner = user or memory.user
    asked = memory.asked_at(now)
    analysis = _known_then(memory, owner, analyze_query(question, asked, memory.store, owner, asker=USER_ROLE))
    hits = memory.search(question, k=SPEAKER_CHECK_DEPTH, user=owner, now=asked, mode=mode)
    if not hits:
        return False
    return QuestionWords(memory, owner, question, analysis, hits).speaker_check()[2]


def _known_then(memory: Memory, owner: str, analysis: QueryAnalysis) -> QueryAnalysis:
    """For a memory seen at a past time (``Memory.at``), the question's entities it knew then: those a fact said by
    then names ("Lisbon", told only later, is no known entity in early March, so the question is unrelated)."""
    if memory.cutoff is None or not analysis.entities:
        return analysis
    named = {name for f in memory.facts(status="all", user=owner) for name in (f.subject, *(n for _, n in f.roles))}
    return replace(analysis, entities=tuple(m for m in analysis.entities if m.name in named))


@dataclass(slots=True)
class _Reader:
    memory: Memory
    user: str
    question: str
    analysis: QueryAnalysis
    hits: list[SearchHit]
    items: list[EvidenceItem]  # the pack's items, best first
    evidence_tokens: int
    now: datetime  # when the question is asked
    evidence: EvidenceView = field(init=False)
    words: QuestionWords = field(init=False)

    def __post_init__(self) -> None:
        self.evidence = EvidenceView(self.hits, self.items)
        self.words = QuestionWords(self.memory, self.user, self.question, self.analysis, self.hits)

    def read(self) -> Answer:
        if not self.hits or not self.items:
            # "Who is my fiancée?", "Where do I work?" (after "I start at Spotify on March 3rd") are read from the
            # facts, whether or not the search found their words
            return (
                self._relatives_by_name()
                or self._pets_asked()
                or self._facts_alone()
                or self._activities()
                or self._medications()
                or self._abstain("no evidence")
            )
        # "What hobby am I doing?", "What medication am I on?": read from the facts, though no hit says "hobby"
        from_facts = self._activities() or self._medications()
        if from_facts is not None:
            return from_facts
        # the asker ("my", "I") counts as named only where the question asks where they are or one of their states
        # ("Which city am I in?"); "What is my mother's name?" needs the best hit to share a word with it
        about_asker = (
            bool(state_predicates(self.question))
            or asks_for_a_place(self.question)
            or asks_about_housemates(self.question)
        )
        entities = [m for m in self.analysis.entities if m.name != USER_ROLE or about_asker]
        relatives = relatives_named(self.question, USER_ROLE)
        # a relative whose relation a fact holds counts too: "her name's Ros ... seeing each other" is a girlfriend
        # ("Who am I seeing?" by the asker's own partner facts only: "My sister Ana is dating Marco" says "dating")
        dating = asks_whom_dating(self.question)
        mentioned = [
            (not dating and relative_mentioned(relative, (h.turn_text for h in self.hits)))
            or relation_said(self.memory, self.user, relative)
            for relative in relatives
        ]
        # "Who is my partner?" is about "I'm dating Emil", though no word of it is said
        if not entities and not overlap(self.words.content_stems(), self.hits[0].turn_text) and not any(mentioned):
            return self._abstain("unrelated")
        if not all(mentioned):
            return self._abstain("unknown relative")  # "What is my wife's name?", and no wife was mentioned
        named, everyone, elsewhere = self.words.speaker_check()
        if elsewhere:
            # "Where do I work now?" is read from the user's facts, however much the assistant talked about work
            dated = (
                asks_for_a_date(self.question) or asks_how_long_ago(self.question) or asks_how_long_had(self.question)
            )
            mine = asks_of_me(self.question)
            state = self._current_state(self._state_reader()) if mine and not dated else None
            return state or self._abstain("said_by_another_speaker")
        top = [s for s in everyone if s.rank < SENTENCE_DEPTH]
        # only the named person's own words when the question names one of the people talking (and they said any);
        # the user's own for the user's "I", "we" ("Do we have a greyhound?" is not the assistant's "Greyhounds are")
        asks_me = asks_of_me(self.question)
        asker = USER_ROLE if named is None and asks_me else named
        sentences = [s for s in top if s.speaker == asker] or top
        if asks_for_a_date(self.question):
            return self._when()
        if asks_how_long_ago(self.question):
            return self._how_long_ago()
        if asks_how_long_had(self.question):
            return self._how_long_had(sentences)
        kin = self._relation_held() or self._relation_at() or self._relatives_by_name() or self._pets_asked()
        if kin is not None:
            return kin
        state_reader = self._state_reader()
        state = self._current_state(state_reader)
        if state is not None:
            return state
        others, asked = state_reader.others_states()
        if others:  # a sentence saying someone else's state, or another state, answers another question
            sentences = [s for s in sentences if not _holds(s, others) or _holds(s, asked)]
            if not sentences:
                return self._abstain("another state")
        speakers = {h.speaker for h in self.hits}
        sentences, why = state_sentences(self.question, sentences, self.analysis, speakers)
        if why is not None:
            return self._abstain(why)
        by_relation = self._named_by_relation()
        if by_relation is not None:
            return by_relation
        by_predicate = self._predicate_facts()
        if by_predicate is not None:
            return by_predicate
        if sentences and question_kind(self.question) != "yes_no":
            # "Where does Joost work?" is not read from the user's "I'm still at Fernhill"
            people = self.words.third_persons()
            sentences = [s for s in sentences if not self.words.of_someone_else(s, people)]
            if not sentences:
                return self._abstain("about someone else")
            relative = relative_asked_about(self.question, USER_ROLE) or relative_named_asked(self.question, USER_ROLE)
            # one relative ("What is my cat's name?" is not read from "His name is Kasper."); several may be named
            # without the word ("What are Audrey's dogs' names?": "Pepper, Panda and Precious")
            if (
                relative is not None
                and relative.relation in REL_SINGLE - NON_UNIQUE_RELS  # not "my friend Sam", one of several
                and not asks_for_a_list(self.question)
            ):
                of_them = relative_said(self.memory, self.user, relative)
                sentences = [s for s in sentences if not s.is_question and of_them.search(s.text)]
                if not sentences:
                    return self._abstain("not about them")
        return self._short_answer(sentences)

    def _state_reader(self) -> StateReader:
        return StateReader(self.memory, self.user, self.question, self.analysis, self.hits, self.now)

    def _facts_alone(self) -> Answer | None:
        """A current state read from the facts alone, where the search found no words."""
        reading = self._state_reader().read()
        if reading is None or reading.abstain is not None or not reading.cited:
            return None
        return self._state_answer(reading.text, list(reading.cited))

    def _medications(self) -> Answer | None:
        """ "What medication am I on?", "Am I still on amlodipine?": the medicines started and not stopped since
        (``medications``)."""
        reading = read_medications(self.memory, self.user, USER_ROLE, self.question, self.now, self.analysis.window)
        if reading is None:
            return None
        return self._answer(reading.text, self._fact_citations(list(reading.cited)), via=Reading.MEDICINES)

    def _activities(self) -> Answer | None:
        """ "What hobby am I doing these days?": the pastimes the asker started and has not ended (``activities``)."""
        if not asks_for_activities(self.question):
            return None
        sports = asks_for_sports(self.question)
        found = current_activities(self.memory, self.user, USER_ROLE, self.now, sports=sports)
        if found is None or not found.names:
            return None  # none said, or all ended: the sentence readers go on
        return self._answer(", ".join(found.names), self._fact_citations(list(found.cited)), via=Reading.PASTIMES)

    def _pets_asked(self) -> Answer | None:
        """ "Do I have a dog?", "Do I still have Biscuit?" after the dog named died: no, citing the death; yes, citing
        a dog alive. "How many dogs do I have?": those left (``pets_counted``)."""
        pets = pets_asked(self.memory, self.user, self.question, USER_ROLE, self.now)
        if pets is None:
            return self._from_facts(
                pets_counted(self.memory, self.user, self.question, USER_ROLE, self.now), Reading.PETS
            )
        if pets.living:
            return self._answer("Yes", self._fact_citations(pets.living[:1]), pets.living[0].text, via=Reading.PETS)
        deaths = "; ".join(f.text for f in pets.deaths)
        return self._answer("No", self._fact_citations(pets.deaths), deaths, via=Reading.PETS)

    def _relation_held(self) -> Answer | None:
        """ "Is Finn still my boss?": the latest relation fact about them said by now (``relation_yes_no``)."""
        held = relation_held(self.memory, self.user, self.question, USER_ROLE, self.now)
        if held is None:
            return None
        detail = "; ".join(f.text for f in held.cited)
        return self._answer(
            "Yes" if held.holds else "No", self._fact_citations(list(held.cited)), detail, via=Reading.KIN
        )

    def _relation_at(self) -> Answer | None:
        """ "Who was my boss before Omar?", "Who was I dating in March?" (``relation_at``)."""
        if not asks_role_at(self.question):
            return None  # every question passes here: the facts are read only for those it asks
        found = role_at(self.question, self.memory.facts(status="all", subject=USER_ROLE, user=self.user), self.now)
        if found is None:
            return None
        if not found.names:
            return self._abstain("no holder then")  # "Who was my boss in 2019?", the first boss said in 2025
        detail = "; ".join(f.text for f in found.cited)
        return self._answer(", ".join(found.names), self._fact_citations(found.cited), detail, via=Reading.KIN)

    def _relatives_by_name(self) -> Answer | None:
        """ "What are my children's names?", "Who is Ines married to?": the relation facts that name them; "Who is
        my boyfriend?" after "Tom and I broke up": no one, and who was."""
        kin = relatives_asked_by_name(self.memory, self.user, self.question, USER_ROLE, self.now)
        if kin.held:
            return self._kin_answer("{}", kin.held, kin.held)
        if kin.ended:
            return self._kin_answer("no one now (previously {})", kin.ended, [*kin.ended, *kin.endings])
        if kin.over:  # "my old boss Finn", and no boss said since: who was, not who is
            return self._kin_answer("previously {}", kin.over, kin.over)
        return None

    def _kin_answer(self, said: str, named: list[FactRecord], cited: list[FactRecord]) -> Answer:
        """The names of ``named`` in the words ``said`` ("no one now (previously {})"), citing ``cited``."""
        names = ", ".join(dict.fromkeys(f.object for f in named if f.object))
        via = Reading.KIN if _of_asker(cited) else Reading.NAMED_KIN
        return self._answer(said.format(names), self._fact_citations(cited), "; ".join(f.text for f in cited), via=via)

    # -- the three readers ---------------------------------------------------------------------------------------

    def _when(self) -> Answer:
        dated = self._dated()
        if dated is None:
            return self._abstain("undated")
        return self._answer(dated.text, dated.citations, dated.detail)

    def _how_long_ago(self) -> Answer:
        """ "How long ago did I move to Bristol?": the span from that day to the day asked, and the day ("5 days
        ago, 20 March 2026")."""
        dated = self._dated()
        if dated is None:
            return self._abstain("undated")
        return self._answer(f"{time_ago(dated.start, self.now)}, {dated.text}", dated.citations, dated.detail)

    def _how_long_had(self, sentences: list[Sentence]) -> Answer:
        """ "How long have we had Toffee?": a span said of it ("We've had Toffee for years", "for 4 years now"), else
        the span from the day the asker said they got it ("We adopted a beagle called Toffee last weekend") to the
        day asked ("about 6 months (since 7 February 2026 to 8 February 2026)")."""
        asked = (self.words.named_stems() or self.words.content_stems()) - {stem(w) for w in ("had", "have", "long")}
        for sentence in sentences[:LIST_ITEMS]:
            found = _SPAN_SAID.search(sentence.text)
            if found is not None and overlap(asked, sentence.text):
                said = " ".join(found.group().split())
                return self._answer(said, [self.evidence.sentence_citation(sentence)], f"said as '{said}'")
        dated = self._dated()
        if dated is None:
            return self._abstain("undated")
        if not any(GOT_IT.search(c.quote) or GOT_IT.search(self._turn_text(c)) for c in dated.citations[:1]):
            return self._abstain("not said as got")  # "I had a cold last week" dates no having of anything
        if dated.detail.startswith(UNDATED_DETAIL):
            return self._abstain("undated")  # no time word read: the day it was said is not the day it was got
        span = time_ago(dated.start, self.now).removesuffix(" ago")
        if span in ("today", "not yet"):
            return self._abstain("not yet had")
        return self._answer(f"about {span} (since {dated.text})", dated.citations, dated.detail)

    def _turn_text(self, citation: AnswerCitation) -> str:
        try:
            return self.evidence.turn_text(citation.session_id, citation.turn_index)
        except KeyError:
            return ""

    def dated(self) -> Dated | None:
        """The day the question asks about, read as for a when-question; None where nothing was found."""
        return self._dated() if self.hits and self.items else None

    def _dated(self) -> Dated | None:
        ended = ending_dated(self.memory, self.user, self.question)  # "When did I break up with Tom?"
        if ended is not None:
            return ended.dated
        ahead = asks_when_ahead(self.question)
        content, named = self.words.content_stems(), self.words.named_stems()
        mine = asks_of_me(self.question)
        speaker = USER_ROLE if mine else None
        evidence = self.evidence
        return date_of(self.memory, self.user, self.question, evidence, content, named, ahead=ahead, speaker=speaker)

    def _current_state(self, state_reader: StateReader) -> Answer | None:
        reading = state_reader.read()
        if reading is None:
            return None
        if reading.abstain is not None:
            return self._abstain(reading.abstain)
        return self._state_answer(reading.text, list(reading.cited))

    def _state_answer(self, text: str, facts: list[FactRecord]) -> Answer:
        via = Reading.STATE if _of_asker(facts) else Reading.NAMED_STATE
        return self._answer(text, self._fact_citations(facts), via=via)

    def _fact_citations(self, facts: list[FactRecord]) -> list[AnswerCitation]:
        """Each fact's sources, one citation a span; a fact read through a pronoun ("He lives in Leeds") also cites
        the words naming who it is about."""
        citations: dict[tuple[str, int, int, int], AnswerCitation] = {}
        for fact in facts:
            named = antecedent_citation(self.memory, self.user, fact)
            for c in ([named] if named is not None else []) + [fact_citation(fact, s) for s in fact.sources]:
                citations.setdefault((c.session_id, c.turn_index, c.char_start, c.char_end), c)
        return list(citations.values())

    def _named_by_relation(self) -> Answer | None:
        """A who-question naming one person by a relation ("Who is Priya's fiancé?": Marcus), or naming one person
        and nothing else ("Who is Grace?": Maya's manager); ``predicate_facts`` has the rules."""
        if question_kind(self.question) != "who":
            return None
        entities = self.analysis.entities
        # a name said by another name ("Priya's fiancé"), not a given name alone ("Gerald": Gerald Whitcombe)
        aliased = [
            m for m in entities if m.matched.casefold() != m.name.casefold() and not same_person(m.matched, m.name)
        ]
        if not aliased and self._asks_who_one_is():
            facts = self.memory.facts(status="all", user=self.user)  # an ended relation is cited with its start
            return self._from_facts(relations_of(entities[0].name, facts, self.now), Reading.RELATION)
        if len(aliased) != 1:
            return None
        match = aliased[0]  # the other names asked must stand inside it ("Priya" in "Priya's fiancé")
        if not all(match.char_start <= m.char_start and m.char_end <= match.char_end for m in entities):
            return None
        return self._from_facts(
            named_by_relation(match.matched, match.name, self.memory.facts(user=self.user)), Reading.RELATION
        )

    def _asks_who_one_is(self) -> bool:
        """ "Who is Grace?": a who-question naming one person and nothing else."""
        entities = self.analysis.entities
        return (
            question_kind(self.question) == "who"
            and len(entities) == 1
            and not self.words.content_stems() - self.words.entity_stems()
        )

    def _predicate_facts(self) -> Answer | None:
        """The values of the named entities' facts whose predicate the question asks for ("What is Maya's dog
        called?": "Biscuit"), where one of their sources is among the hits the answer is read from."""
        if not self.analysis.entities or question_kind(self.question) not in ("what", "who", "where"):
            return None  # counts, durations and yes/no are cut from the sentence that says them
        read = {(h.session_id, h.turn_index) for h in self.hits[:SENTENCE_DEPTH]}
        facts = [
            f
            for m in self.analysis.entities
            for f in self.memory.facts(subject=m.name, user=self.user)
            if any((s.session_id, s.turn_index) in read for s in f.sources)
        ]
        # "Which dogs do I have?": not one that died
        dead = pets_died(self.memory, self.user, facts, self.question, self.now)
        living = [f for f in facts if f.id not in dead]
        return self._from_facts(
            by_predicate(self.question, self.words.content_stems() - self.words.entity_stems(), living),
            Reading.PREDICATE,
        )

    def _from_facts(self, found: FactAnswer | None, via: Reading) -> Answer | None:
        if found is None:
            return None
        return self._answer(found.text, self._fact_citations(found.facts), found.detail, via=via)

    def _short_answer(self, sentences: list[Sentence]) -> Answer:
        """The span of the best supported sentence that answers the question (the whole sentence in ``detail``);
        a question asking for several things gets the spans of the best few sentences, comma-separated."""
        words = self.words
        if not sentences:
            hit = self.hits[0]
            turn = self.evidence.turn_item(hit)
            return self._answer(" ".join(hit.text.split()), [self.evidence.hit_citation(hit, turn.id if turn else "")])
        kind = question_kind(self.question)
        # a question someone asked is no answer to it ("How old is Zoe now?" is not Zoe's age), when a statement is
        sentences = [s for s in sentences if not s.is_question] or sentences
        if kind == "where":  # "Where was Marta's wedding?": a sentence that says a place ("on June 7th in Krakow")
            sentences = [s for s in sentences if says_a_place(s.text)]
            if not sentences:
                return self._abstain("no place")  # "Mum's visit was lovely." is nowhere
        elif kind == "who":  # "Who was the flower girl?": "Ola was the flower girl.", not "The wedding was lovely."
            asked = question_stems(self.question)
            sentences = [s for s in sentences if names_someone_new(s.text, asked)] or sentences
        count = LIST_ITEMS if asks_for_a_list(self.question) else 1
        chosen = distinct_turns(sentences, count)
        spans: list[str] = []
        best = chosen[0]
        via: Reading | None = None
        if kind == "yes_no":
            # "Does Maya have a cat?" is no "Yes" from "Good question.": the sentence must say what is asked, and
            # not ask it ("Did you climb Scafell Pike?")
            asked = self.words.support_stems()
            said = asked - other_senses(self.question, best.text)  # not the "fired" of "I'm fired up"
            if asked and (not overlap(said, best.text) or best.text.rstrip().endswith("?")):
                return self._abstain("unsupported")
            described = described_as(self.question, (h.turn_text for h in self.hits))  # "a band called X"
            speakers = {h.speaker for h in self.hits}  # who talks is not named in their own words
            talking = {w for s in speakers for w in question_stems(s)} | self.words.speaker_alias_stems(speakers)
            named = specifics(self.question) - described - talking  # one of them, where it asks "X or Y"
            if named and not named & stems_of(best.text):
                return self._abstain("unsupported")  # "Am I allergic to shellfish?" from "allergic to peanuts"
            if only_supposed(best.text, self.question):
                return self._abstain("only supposed")  # "Are we moving to Antwerp?" from "... I should move to Antwerp"
            endings = endings_of(self.memory, self.user, self.question, self.now, set(described | named))
            named_by = best
            best = latest_saying_as_much(self.question, best, [*sentences, *endings], asked, described, self.now)
            chosen = [named_by, best] if best in endings and named_by is not best else [best]  # what ties them
            reply = yes_or_no(best.text, self.question, described)
            if _place(best) != _place(named_by):
                via = Reading.CHANGED  # "Am I still seeing Callum?" answered by a later "Callum and I split up"
            if reply == "Yes" and ended_by(best, self.question, self.now):
                reply, via = "No", Reading.CHANGED  # "i'm stopping sax lessons at the end of june", asked in September
            outcome = (
                plan_outcome(self.memory, self.user, self.question, best, asked, self.now) if reply == "Yes" else None
            )
            if outcome is not None:  # "Did I run the Porto half?" from "signed up for it"
                reply, via = outcome.reply, Reading.CHANGED
                if outcome.said_by is not None and outcome.said_by not in chosen:
                    chosen = [*chosen, outcome.said_by]  # the plan's sentence, and the one that calls it off
            spans.append(reply)
        elif not overlap(words.content_stems() | words.entity_stems(), best.text) and not words.speaks(best):
            return self._abstain("unsupported")  # "How old is Mia?" is not read from "My flight is on the 20th"
        elif (asked := words.content_stems() - words.entity_stems() - ANSWER_TYPES) and not overlap(asked, best.text):
            if not words.speaks(best):  # "Where was Priya born?" is not the user's "Priya and I got engaged"
                return self._abstain("unsupported")
        else:
            fixed = corrected_sentence(self.memory, self.user, best.hit.session_id, best.hit.turn_index, best.text)
            if fixed is not None:  # "a beagle called Max." ... "Correction: Max is a basset hound, not a beagle."
                return self._corrected_answer(best, fixed, kind)
            later = self._said_instead(best, sentences)
            if later is not None:  # the same, said in a later session
                start, end = answer_span(self.question, later.text, kind)
                cited = [self.evidence.sentence_citation(best), self.evidence.sentence_citation(later)]
                span = " ".join(later.text[start:end].split())
                return self._answer(span, cited, detail=f"{later.speaker}: {' '.join(later.text.split())}")
        # "Who is Nina?" with no relation read: what a statement naming her says ("I met Nina at the gym, we are
        # friends now"), not a piece of it ("met"); none from a question or the assistant's words
        asked_name = who_is_asked(self.question)
        naming = [s for s in sentences if _names(asked_name, s.text)] if asked_name is not None else []
        said_of = [s for s in naming if not s.is_question and s.speaker not in _NOT_THE_ASKER]
        whole = bool(naming) and kind != "yes_no"
        if whole and not said_of:
            return self._abstain("not said of them")  # "Do you think Nina likes me?", the assistant's "Have fun"
        if whole and best not in said_of:
            best = said_of[0]
            chosen = [best]
        for sentence in chosen if kind != "yes_no" else ():
            start, end = (0, len(sentence.text)) if whole else answer_span(self.question, sentence.text, kind)
            span = " ".join(sentence.text[start:end].split())
            if span and span not in spans:
                spans.append(span)
        citations = [self.evidence.sentence_citation(s) for s in chosen]
        detail = f"{best.speaker}: {' '.join(best.text.split())}"
        return self._answer(", ".join(spans), citations, detail=detail, via=via)

    def _corrected_answer(self, best: Sentence, fixed: CorrectedSentence, kind: QuestionKind) -> Answer:
        """The answer read from the words that correct ``best``: the corrected value, else the span of the
        correcting sentence; both sentences cited."""
        new = fixed.correction.new
        if new is None:
            start, end = answer_span(self.question, fixed.text, kind)
            new = " ".join(fixed.text[start:end].split())
        cited = [self.evidence.sentence_citation(best), fixed.citation()]
        return self._answer(new, cited, detail=f"{best.speaker}: {' '.join(fixed.text.split())}")

    def _said_instead(self, best: Sentence, sentences: list[Sentence]) -> Sentence | None:
        """A later sentence of the same speaker among ``sentences`` that corrects a value ``best`` says."""
        when = (instants.sort_key(best.hit.timestamp), best.hit.turn_index)
        later = [
            s
            for s in sentences
            if s.speaker == best.speaker
            and (instants.sort_key(s.hit.timestamp), s.hit.turn_index) > when
            and says_instead_of(s.text, best.text)
        ]
        return max(later, key=lambda s: (instants.sort_key(s.hit.timestamp), s.hit.turn_index), default=None)

    # -- helpers ---------------------------------------------------------------------------------------------------

    def _answer(
        self, text: str, citations: list[AnswerCitation], detail: str = "", *, via: Reading | None = None
    ) -> Answer:
        unique = tuple(dict.fromkeys(citations))
        return Answer(
            question=self.question,
            answer=text,
            detail=detail,
            citations=unique,
            steps=1,
            cost=Cost(),
            flags=("offline", via.flag) if via else ("offline",),
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


# a span said: "since I was a boy", "for years", "for 4 years now", "forever"
_SPAN_SAID = re.compile(
    r"\bsince\s+[^,.;:!?]+|\bfor\s+(?:(?:about|nearly|almost|over|around|like)\s+)?(?:\d+|a|an|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several|many)\s+(?:years?|months?|weeks?|days?|decades?)\b"
    r"|\bfor\s+(?:years|ages|ever|a\s+while|so\s+long|a\s+long\s+time)\b|\bforever\b",
    re.IGNORECASE,
)


def _place(sentence: Sentence) -> tuple[str, int, int]:
    """Where ``sentence`` was said: its session, turn and start (sentences compare on their scores too)."""
    return sentence.hit.session_id, sentence.hit.turn_index, sentence.start


def _of_asker(facts: list[FactRecord]) -> bool:
    """Whether ``facts`` are the asker's (the speaker "user" of a user/assistant log), or tie a relative to them."""
    return any(f.subject == USER_ROLE for f in facts)


_NOT_THE_ASKER = frozenset({"assistant", "system"})


def _names(name: str, text: str) -> bool:
    """Whether ``text`` says ``name`` as a name: capitalised ("who is sam" names the "Sam" of "Sam asked me out"; "who
    was at the party" names no one)."""
    said = name if name != name.lower() else name.title()
    return re.search(rf"(?<![\w'’]){re.escape(said)}(?![\w])", text) is not None


def _holds(sentence: Sentence, spans: list[tuple[str, int, int, int]]) -> bool:
    """Whether ``sentence`` holds one of ``spans`` (fact sources) of its turn."""
    hit = sentence.hit
    return any(
        (sid, turn) == (hit.session_id, hit.turn_index) and start < sentence.end and sentence.start < end
        for sid, turn, start, end in spans
    )
