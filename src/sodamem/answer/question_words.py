"""The question's words read against the hits: the people talking whom it names, the third persons it asks about,
and the stems that must stand in a sentence that answers it (the offline reader's speaker and support checks).

Pure reading over the question, its analysis and the hits (the store is asked only which entities the speakers
are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sodamem.answer.sentence_checks import FIRST_PERSON, ends_at_a_subject, is_kin, speaks_of_a_third_person, stems_of
from sodamem.answer.spans import question_stems
from sodamem.answer.state_reader import USER_ROLE
from sodamem.answer.support import Sentence, rank_sentences, said_by_someone_else, speakers_named, word_weights
from sodamem.memory import Memory
from sodamem.porter import stem
from sodamem.records import SearchHit
from sodamem.retrieve.fts_query import STOPWORDS
from sodamem.retrieve.query import EntityMatch, QueryAnalysis

# Abstain when another speaker's sentence covers this share of the question's words and the named person's best
# covers less than OTHER_SPEAKER_MARGIN below it (tuned on the LoCoMo dev split, docs/bench.md).
OTHER_SPEAKER_COVERAGE = 0.3
OTHER_SPEAKER_MARGIN = 0.2
SPEAKER_CHECK_DEPTH = 40  # who said what is compared over this many (the search lifts the named person's turns)
_WORD = re.compile(r"[^\W_]+")
_LAST_SENTENCE = re.compile(r"[^.!?]*[.!?]*$")


@dataclass(slots=True)
class QuestionWords:
    """A question's words and the hits found for it."""

    memory: Memory
    user: str
    question: str
    analysis: QueryAnalysis
    hits: list[SearchHit]

    def speaker_check(self) -> tuple[str | None, list[Sentence], bool]:
        """(the person talking whom the question names, every sentence of the hits ranked by support, whether the
        words that match the question were said by someone other than that person)."""
        named = self.named_speaker()
        stems = self.support_stems()
        everyone = rank_sentences(stems, self.hits, word_weights(stems, self.hits), depth=SPEAKER_CHECK_DEPTH)
        elsewhere = named is not None and said_by_someone_else(
            everyone, named, OTHER_SPEAKER_COVERAGE, OTHER_SPEAKER_MARGIN
        )
        return named, everyone, elsewhere

    def third_persons(self) -> list[EntityMatch]:
        """The third persons the question asks about: not the asker, nobody talking, named or kin ("my mum"), and
        the question's subject ("does Joost", not "Marta's")."""
        speakers = {h.speaker for h in self.hits}
        talking = self.speaker_alias_stems(speakers)
        return [
            m
            for m in self.analysis.entities
            if m.name not in (USER_ROLE, *speakers)
            and m.matched.lower() not in FIRST_PERSON  # the asker, whatever their name ("I" is Dev)
            and not question_stems(m.name) & talking  # a speaker called by name ("What does Dev teach?")
            and (m.matched[:1].isupper() or is_kin(m.matched))
            and ends_at_a_subject(self.question[: m.char_start])  # the subject: "does Joost", not "Marta's"
        ]  # named, or kin ("my mum"): not "dogs"

    def of_someone_else(self, sentence: Sentence, people: list[EntityMatch]) -> bool:
        """Whether ``sentence`` neither names the third persons asked about (``third_persons``) nor speaks of
        anyone as "he", "she" or "they": then it speaks of someone else, its speaker most likely."""
        if not people or self.speaks(sentence) or speaks_of_a_third_person(sentence.text):
            return False
        # the sentence before it in the turn counts too: "wout and fenne are engaged!! after like 4 months together"
        before = sentence.hit.turn_text[: sentence.start].rstrip()
        lead = _LAST_SENTENCE.search(before)
        words = stems_of(sentence.text) | (stems_of(lead.group()) if lead else set())
        return not any((question_stems(m.matched) | question_stems(m.name)) & words for m in people)

    def speaks(self, sentence: Sentence) -> bool:
        """Whether the sentence's speaker is someone the question names (the asker's "I" names the user)."""
        asker = sentence.speaker == USER_ROLE and any(m.name == USER_ROLE for m in self.analysis.entities)
        return asker or bool(question_stems(sentence.speaker) & self.entity_stems())

    def named_speaker(self) -> str | None:
        """The one person talking whom the question names (None for none or several, or a one-voice memory)."""
        speakers = {h.speaker for h in self.hits}
        named = speakers_named(self.question, self.hits)
        return named[0] if len(named) == 1 and len(speakers) > 1 else None

    def support_stems(self) -> set[str]:
        speakers = {h.speaker for h in self.hits}
        names = {w for speaker in speakers for w in question_stems(speaker)} | self.speaker_alias_stems(speakers)
        content = self.content_stems() & question_stems(self.question)
        return (content - names) or content

    def speaker_alias_stems(self, speakers: set[str]) -> set[str]:
        """The question's words naming an entity that one of the speakers is ("Maya" when the speaker "user" said
        "I'm Maya"): every turn of that speaker is about them, so the name does not tell sentences apart."""
        if not self.analysis.entities:
            return set()
        speaker_entities = set(self.memory.store.speaker_entities(self.user, speakers).values())
        return {w for m in self.analysis.entities if m.entity_pk in speaker_entities for w in question_stems(m.matched)}

    def content_stems(self) -> set[str]:
        words = {w.lower() for term in self.analysis.content_terms for w in _WORD.findall(term)}
        return {stem(w) for w in words if w not in STOPWORDS}

    def named_stems(self) -> set[str]:
        """The words naming someone or something other than the asker and the people talking: entities, and
        capitalised words after the first ("Spotify" in "When do I start at Spotify?", though no fact names it)."""
        named = {w for m in self.analysis.entities if m.name != USER_ROLE for w in question_stems(m.matched)}
        capitalised = re.findall(r"(?<=\s)[A-Z][\w'’-]+", self.question)
        named |= {w for word in capitalised if word != "I" for w in question_stems(word)}
        # the people talking: their own words do not name them ("Maria" is in "Hey Maria!", not in what she said)
        speakers = {h.speaker for h in self.hits}
        return named - {w for s in speakers for w in question_stems(s)} - self.speaker_alias_stems(speakers)

    def entity_stems(self) -> set[str]:
        return {w for m in self.analysis.entities for w in question_stems(m.matched)}
