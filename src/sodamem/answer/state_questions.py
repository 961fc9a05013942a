"""What a current-state question asks, read from its words alone: whom it asks of ("What does Leah do?"), whether
it asks about housemates ("Who do I live with?"), whether it names a value ("Am I vegan?", "Do I live in York?"),
and which facts give an asked state. Pure functions over the question and fact records; ``state_reader.py`` reads
the memory with them.
"""

from __future__ import annotations

import re

from sodamem.answer.due_plans import PLAN_STATES
from sodamem.ingest.entities import value_key
from sodamem.ingest.extract.rules_vocabulary import NAME, NAME_STOP
from sodamem.ingest.supersede import same_value
from sodamem.records import FactRecord

# the person a question asks about, by name: "What does Leah do?", "Where is Leah's office?"
_ASKED_OF = re.compile(
    r"\b(?i:does|did|do|is|was|has|had|are|were|will|would|can)\s+(?P<name>[A-Z][\w-]+)(?![\w'’])"
    r"|(?<![\w'’])(?P<owner>[A-Z][\w-]+)['’]s\b"
)


def asks_about_housemates(question: str) -> bool:
    """ "Who do I live with?", "Do I still live with Carlos?", "Does Beckett live with me?"."""
    return any(p.search(question) for p in (WHO_LIVES_WITH, LIVE_WITH, LIVES_WITH_ME))


def person_asked_of(question: str) -> str | None:
    """The name the question asks about someone by (not "I", a day or a month), if any: when no entity matched it,
    nobody the memory knows, and the asker's own facts do not answer it."""
    for m in _ASKED_OF.finditer(question):
        name = m["name"] or m["owner"]
        if name != "I" and name.lower() not in NAME_STOP:
            return name
    return None


_ANCHOR_VERB = (
    r"(?:(?:moving|going)\s+to\s+|working\s+at\s+|living\s+in\s+|joining\s+|being\s+"
    # a clause naming the next value: "before I moved to Leeds", "after we started at Chatime", "I became a nurse"
    r"|(?:I|we)\s+(?:(?:moved|relocated)\s+to|(?:started|began)\s+(?:working\s+)?at|joined|became(?:\s+an?)?)\s+)?"
)
ANCHOR = re.compile(rf"\b(?P<side>before|prior\s+to|after)\s+{_ANCHOR_VERB}(?P<what>.+)", re.IGNORECASE)


def same_value_said(a: str, b: str) -> bool:
    """One value said in full or in short ("Ember Health", later "Ember")."""
    return same_value(value_key(a), value_key(b))


def names_said(words: str, said: str) -> bool:
    return bool(said) and re.match(rf"(?:the\s+)?{re.escape(said.casefold())}(?!\w)", words.casefold()) is not None


WHO_LIVES_WITH = re.compile(
    r"\bwho\s+(?:(?:do|does|did)\s+(?:I|we|[A-Z][\w'’-]*)\s+(?:still\s+)?live\s+with|lives\s+with\s+(?:me|us))\b",
    re.IGNORECASE,
)
SAYS_LIVING_WITH = re.compile(
    r"\b(?:live|lives|living|lived|stay|staying)\s+with\b|\broom(?:mate|ie)|\bflat(?:mate|share)|\bhousemate"
    r"|\bmov(?:ed|ing|es?)\s+in\b",
    re.IGNORECASE,
)
LIVES_WITH_ME = re.compile(  # "Does Beckett still live with me?"
    rf"\b(?i:does|is)\s+(?P<name>{NAME})\s+(?i:still\s+)?(?i:live|living)\s+with\s+(?i:me|us)\b"
)
LIVE_WITH = re.compile(rf"\blive\s+with\s+(?P<name>{NAME})\s*\??\s*$")


def names_a_value(question: str) -> bool:
    """Whether a yes/no question names a value a state could hold: a capitalised name after its first word ("Do I
    live in York?"), or a word of the state vocabulary ("Am I vegetarian?")."""
    named = re.search(r"(?<=\s)(?<!\bwith\s)(?!I\b)[A-Z][\w'’-]*", question) is not None  # not "live with Carlos"
    return named or bool(set(re.findall(r"[a-z]+", question.lower())) & _VALUE_WORDS)


_VALUE_WORDS = frozenset(
    "vegan vegetarian pescatarian keto married single engaged divorced separated widowed dating".split()
)


AT_OR_IN = re.compile(r"\b(?:at|in|for)\s+(?:the\s+)?[A-Z]")
CAPITALISED = re.compile(r"(?<=\s)[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*")


def asked_value(fact: FactRecord, wanted: tuple[str, ...]) -> bool:
    """A value a fact gives one of the ``wanted`` states (or a plan of one)."""
    state = PLAN_STATES.get(fact.predicate, fact.predicate)
    return bool(fact.object) and asked(state, wanted)


def asked(predicate: str, wanted: tuple[str, ...]) -> bool:
    """Whether ``predicate`` is one of ``wanted`` ("favorite_*": any favourite)."""
    return any(predicate.startswith(p[:-1]) if p.endswith("*") else predicate == p for p in wanted)


def value(fact: FactRecord) -> str:
    return fact.object or fact.text
