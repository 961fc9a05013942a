"""Which sentences may answer what a state question asks, when the facts did not ("Where does Leah live?" and no
fact names Leah; "Where do I work?" where only a wish or a sister's job was said): the offline reader's narrowing
before it reads a short answer. Pure over the question, its analysis and the ranked sentences.
"""

from __future__ import annotations

import re

from sodamem.answer.relatives import relative_asked_about
from sodamem.answer.sentence_checks import (
    asks_a_duration,
    asks_an_age,
    is_kin,
    names_someone_new,
    says_a_duration,
    says_a_number,
    says_a_place,
)
from sodamem.answer.spans import question_kind, question_stems, tokens
from sodamem.answer.state import STATE_KEYWORDS, state_predicates
from sodamem.answer.state_questions import asks_about_housemates, person_asked_of
from sodamem.answer.state_reader import USER_ROLE
from sodamem.answer.support import Sentence
from sodamem.answer.yes_no import asks_a_wish, only_wished, says_a_wish
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.retrieve.query import QueryAnalysis

_SAYS_I = re.compile(r"\b(?i:i|i['’]m|i['’]ve|i['’]d|i['’]ll|im|ive|we|we['’]re|we['’]ve|us|me)\b")
_ASKS_OF_YOU = re.compile(r"\b(?i:you|your|yours)\b")  # "What book did you recommend for my flight?"
_ASKS_OF_ME = re.compile(r"\b(?i:i|me|my|mine|myself|we|us|our|ours)\b")


# the words a job is said with, beyond the question's keywords ("I joined Monzo", "I'm a nurse")
_WORK = (
    frozenset(
        """work works working worked job jobs employer employed company firm office start started starting joined join
    hired role position shift shifts promoted promotion career boss colleague colleagues team contract internship
    interned clients clinic hospital shop lab studio practice agency startup store salary""".split()
    )
    | rv.JOB_HEADS
)
_STATE_CUES = {"works_at": _WORK, "job": _WORK}
# ... or a firm named where one works: "I'm at Deloitte now", "with Acme since May", "joined Kelp" (not "in the
# Harbour Choir")
_AT_A_FIRM = re.compile(r"\b(?:at|with|joined|for)\s+(?:the\s+)?(?-i:[A-Z])[\w&'’-]+")
_ASKS_A_HOUSEMATE = re.compile(r"\b(?:flat|room|house)[\s-]?mates?\b", re.IGNORECASE)
_HOUSEMATE_SAID = re.compile(
    r"\b(?:flat|room|house)[\s-]?mates?\b|\b(?:live|lives|living|lived)\s+with\b|\bmov(?:e|es|ed|ing)\s+in\b"
    r"|\b(?:partner|boyfriend|girlfriend|wife|husband|fianc[ée]e?)\b",
    re.IGNORECASE,
)


def _kin_not_asked(text: str, asked: set[str]) -> bool:
    """Whether ``text`` names someone by a kin word the question does not say ("my sister", not "my flatmate" to
    "Who is my flatmate?")."""
    return is_kin(" ".join(t.word for t in tokens(text) if t.stem not in asked))


def asks_of_me(question: str) -> bool:
    """A question in the asker's first person, not about what "you" (the assistant) said or did."""
    return _ASKS_OF_ME.search(question) is not None and _ASKS_OF_YOU.search(question) is None


def asks_my_state(question: str, analysis: QueryAnalysis) -> bool:
    """ "Where do I work?", "What's my job?": a state of the user's own, asked in a user/assistant log."""
    if relative_asked_about(question, USER_ROLE) is not None or not asks_of_me(question):
        return False
    return any(m.name == USER_ROLE for m in analysis.entities) or not analysis.entities


def state_sentences(
    question: str, sentences: list[Sentence], analysis: QueryAnalysis, speakers: set[str]
) -> tuple[list[Sentence], str | None]:
    """``sentences`` narrowed to those that may say the state asked (``speakers``: who talks in the hits), and why
    none does where none is left."""
    wanted = state_predicates(question)
    keywords = {word for word, predicates in STATE_KEYWORDS.items() if set(predicates) & set(wanted)}
    unknown = None if analysis.entities else person_asked_of(question)
    if wanted and unknown and unknown not in speakers:  # a speaker is known by their words
        # "Where does Leah live?", and no fact names Leah: a sentence must name her and say such a state
        said = [({t.word for t in tokens(s.text)}, s) for s in sentences]
        sentences = [
            s
            for words, s in said
            if unknown.lower() in words
            and (  # the state's word, or what answers it: "Priya is 29", "Leah is in Boston these days"
                keywords & words
                or ("age" in wanted and says_a_number(s.text))
                or ("lives_in" in wanted and says_a_place(s.text))
            )
        ]
        if not sentences:
            return [], "unknown person"
    if wanted and question_kind(question) != "yes_no":
        # the asker's job is said in its own words: "Where do I work?" is not "I sing in the Harbour Choir" (a
        # relative's is told any way: "Dad flew back to Karachi", "Hana is in Sheffield")
        cues = {w for predicate in wanted for w in _STATE_CUES.get(predicate, ())}
        if cues and asks_my_state(question, analysis):
            sentences = [
                s
                for s in sentences
                if {t.word for t in tokens(s.text)} & (cues | keywords) or _AT_A_FIRM.search(s.text)
            ]
            if not sentences:
                return [], "no state said"
        # "I want to work at Google someday" says where the user hopes to work, not where they do
        sentences = [s for s in sentences if not only_wished(s.text, question, keywords)]
        if not sentences:
            return [], "only wished"
        if asks_a_wish(question):  # "Where do I want to work?": the sentences that say a wish, if any
            sentences = [s for s in sentences if says_a_wish(s.text)] or sentences
        if asks_my_state(question, analysis):
            # the user's own state is said with "I" or "we": "Where do I work?" is not read from "my sister
            # Adaeze made partner at her law firm in Lagos"
            sentences = [s for s in sentences if s.speaker != USER_ROLE or _SAYS_I.search(s.text)]
            if not sentences:
                return [], "not said of the user"
    kind = question_kind(question)
    if (asks_about_housemates(question) or _ASKS_A_HOUSEMATE.search(question)) and kind != "yes_no":
        # "Who do I live with?" is read from a sentence about a home or its people, not "I sing in the choir"
        asked = question_stems(question)
        sentences = [
            s
            for s in sentences
            if _HOUSEMATE_SAID.search(s.text)
            and (kind != "who" or names_someone_new(s.text, asked) or _kin_not_asked(s.text, asked))
        ]
        if not sentences:
            return [], "no housemate said"
    if asks_an_age(question):  # "How old is my brother?" is not "Sam is visiting next weekend"
        sentences = [s for s in sentences if says_a_number(s.text)]
        if not sentences:
            return [], "no age"
    if asks_a_duration(question):  # "How long was I at Saltbush?": "been there nearly four years"
        sentences = [s for s in sentences if says_a_duration(s.text)] or sentences
    return sentences, None
