"""What a sentence must say to answer a question at all (pure): a place for "where", a number for an age, a new name
for "who", the relative or third person asked about. The offline reader abstains rather than answer from a sentence
that says none of it ("Where does my mum live?" is not "Mum's visit was lovely.").
"""

from __future__ import annotations

import re

from sodamem.answer.spans import tokens
from sodamem.ingest.extract.rules_vocabulary import REL, REL_SINGLE
from sodamem.porter import stem

FIRST_PERSON = frozenset("i me my mine myself we us our ours".split())
# Words naming the kind of answer wanted, which the answer itself seldom says: "What breed is Biscuit?" is answered
# by "My dog Biscuit is a beagle".
ANSWER_TYPES = frozenset(stem(w) for w in "breed kind type sort colour color make model brand species".split())

_CALENDAR = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|"
    r"Wednesday|Thursday|Friday|Saturday|Sunday)\b"
)
_PLACE = re.compile(  # "in Krakow", "at the park", "at the BBC", "near home"; not "to visit", "on the 2nd", "in May"
    r"\b(?i:in|at|to|from|near|on|into|onto|around|outside|inside|across|through)\s+"
    rf"(?:(?!{_CALENDAR})[A-Z]\w+|(?i:the|a|an|my|our|his|her|their|this|that)\s+(?![0-9])(?!{_CALENDAR})"
    r"(?!(?i:week|weekend|day|morning|evening|night|time|moment|end|start|beginning)\b)"
    rf"(?!(?i:{REL})\b)[A-Za-z]\w+)"  # not "to his girlfriend"
    r"|\b(?i:here|there|home|abroad|downtown|away|overseas)\b"
    r"|\b(?i:in|at)\s+(?:college|school|university|uni|work|church|town|hospital|class|camp|court|prison|bed)\b"
)
_AFTER_AUXILIARY = re.compile(r"\b(?i:does|did|do|is|was|are|were|has|had|will|can|would)\s+(?:(?i:my|our)\s+)?$")
_THIRD_PERSON = re.compile(r"\b(?:he|she|they|him|her|them|his|hers|their|theirs)\b", re.IGNORECASE)
_ASKS_AN_AGE = re.compile(r"\bhow\s+old\b|\bwhat\s+age\b", re.IGNORECASE)
_NUMBER = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|teens?|twenties|"
    r"thirties|forties|fifties|sixties|seventies|eighties|nineties|newborn|months?\s+old|years?\s+old)\b",
    re.IGNORECASE,
)


def stems_of(text: str) -> set[str]:
    return {t.stem for t in tokens(text)}


def says_a_place(text: str) -> bool:
    """A place after a preposition ("in Krakow", "at the BBC"), or a place word ("home", "abroad")."""
    return _PLACE.search(text) is not None


def ends_at_a_subject(question_before: str) -> bool:
    """Whether what follows ``question_before`` is the question's subject ("Where does|Joost work?", "Where does
    my|mum live?"), not a possessor ("... at Marta's wedding?")."""
    return _AFTER_AUXILIARY.search(question_before) is not None


def names_someone_new(text: str, asked: set[str]) -> bool:
    """Whether ``text`` says a name the question does not ("Ola", not "Marta", to "... at Marta's wedding?")."""
    return any(text[t.start].isupper() and t.word not in FIRST_PERSON and t.stem not in asked for t in tokens(text))


def is_kin(words: str) -> bool:
    return bool(set(words.lower().split()) & REL_SINGLE)


def speaks_of_a_third_person(text: str) -> bool:
    return _THIRD_PERSON.search(text) is not None


def asks_an_age(question: str) -> bool:
    return _ASKS_AN_AGE.search(question) is not None


def says_a_number(text: str) -> bool:
    return _NUMBER.search(text) is not None


# "How long was I at Saltbush?", "How long did the renovation take?" (not "How long ago ...?", a date)
_ASKS_A_DURATION = re.compile(r"^\s*(?:for\s+)?how\s+long\b(?!.*\bago\b)", re.IGNORECASE)
_DURATION = re.compile(
    r"\b(?:\d+(?:\.\d+)?|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|"
    r"forty|fifty|a\s+few|a\s+couple\s+of|several|half\s+a|a\s+and\s+a\s+half)\s+(?:more\s+|whole\s+|full\s+)?"
    r"(?:seconds?|minutes?|hours?|nights?|days?|weeks?|fortnights?|months?|years?|decades?)\b",
    re.IGNORECASE,
)


def asks_a_duration(question: str) -> bool:
    return _ASKS_A_DURATION.search(question) is not None


def says_a_duration(text: str) -> bool:
    """ "been there nearly four years", "took exactly three weeks", "three nights gone"."""
    return _DURATION.search(text) is not None
