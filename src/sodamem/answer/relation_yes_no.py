"""Whether a named person holds a relation now ("Is Finn my boss?", "Is Tom still my boyfriend?"), read off the
relation facts said by then: the latest decides, "Yes" where it says the relation ("my boss Finn"), "No" where it
ends it ("Finn is no longer my boss", "my old boss Finn", "Tom and I broke up", or "We broke up" after it), cited
with what it ended. The sentence readers answered "Yes" from any sentence naming both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sodamem import instants
from sodamem.answer.leavings import leavings, left_since, people_named
from sodamem.answer.predicate_facts import couple_endings, ended_by, replaced_by
from sodamem.ingest.entities import one_person
from sodamem.ingest.extract.rules_vocabulary import NAME, REL, snake
from sodamem.memory import Memory
from sodamem.records import FactRecord
from sodamem.roles import PARTNER_PREDICATES, asked_words

_IS_NAME_MY_RELATION = re.compile(
    rf"^\s*(?i:is)\s+(?P<name>{NAME})\s+(?i:still\s+)?(?i:my|our)\s+(?P<rel>(?i:{REL}))\s*\??\s*$"
)
# asked in a statement's order: "Siobhan is still my boss?"
_NAME_IS_STILL_MY = re.compile(
    rf"^\s*(?P<name>{NAME})\s+(?:is|['’]s)\s+(?i:still\s+)(?i:my|our)\s+(?P<rel>(?i:{REL}))\s*\?\s*$"
)
# "Do I still work under Thabo?", "Do I still work for Priya?", "Am I still reporting to Dan?": the boss
_UNDER_NAME = re.compile(
    rf"^\s*(?i:do|am)\s+I\s+(?i:still\s+)(?i:work\s+(?:under|for)|report(?:ing)?\s+to)\s+(?P<name>{NAME})\s*\??\s*$"
)

# "Does Delphine still manage me?", "Is Kwame still training me?", "Does Lucinda still live next door?": the role
# the verb says
_DOES_NAME_STILL = re.compile(
    rf"^\s*(?i:does|is|do|are)\s+(?P<name>{NAME})\s+(?i:still\s+)?(?P<verb>(?i:manag|supervis|train|coach|teach|tutor"
    r"|liv(?=e|ing)|work(?=\s|ing)))(?i:e|es|s|ing)?(?P<how>(?i:\s+next\s+door|\s+with(?=\s+(?:me|us)\b)))?"
    r"(?:\s+(?i:me|us))?\s*\??\s*$"
)
_ROLE_OF_VERB = {"manag": "boss", "supervis": "boss", "train": "trainer", "coach": "coach", "teach": "teacher"}
# (not "Does Beckett still live with me?" or "... next door?": the home readers know moves, planned and made)
_ROLE_OF_VERB |= {"tutor": "tutor", "work with": "colleague"}


def asked_relation(question: str) -> tuple[str, str] | None:
    """The person and the relation a "still" question asks of: "Is Finn still my boss?" ("Finn", "boss"), "Does
    Delphine still manage me?" ("Delphine", "boss"), "Does Lucinda still live next door?" ("Lucinda", "neighbour")."""
    m = _IS_NAME_MY_RELATION.match(question) or _NAME_IS_STILL_MY.match(question)
    if m is not None:
        return m["name"], " ".join(m["rel"].lower().split())
    if (m := _UNDER_NAME.match(question)) is not None:
        return m["name"], "boss"
    m = _DOES_NAME_STILL.match(question)
    if m is None:
        return None
    verb = m["verb"].lower() + (" " + " ".join(m["how"].lower().split()) if m["how"] else "")
    role = _ROLE_OF_VERB.get(verb)
    return (m["name"], role) if role else None


def _said_order(fact: FactRecord) -> tuple[object, int, bool]:
    """When and where in its message a fact was said, an ending after what it ends at one place ("My boss Finn quit":
    both quote from "My boss Finn"; "we broke up but got back together, so my boyfriend Tom is back": Tom last)."""
    where = min((s.char_start for s in fact.sources), default=0)
    return instants.sort_key(fact.mentioned_at), where, fact.denies


@dataclass(frozen=True, slots=True)
class RelationHeld:
    holds: bool
    cited: tuple[FactRecord, ...]  # what decides it, after what it ended


def relation_held(memory: Memory, user: str, question: str, asker: str, now: datetime) -> RelationHeld | None:
    """For "Is <Name> (still) my <relation>?" (or "Does <Name> still manage me?"): whether the relation facts said by
    ``now`` last say it holds."""
    asked = asked_relation(question)
    if asked is None:
        return None
    person, relation = asked
    words = {snake(w) for w in asked_words(relation)}
    if words & PARTNER_PREDICATES:
        words |= PARTNER_PREDICATES  # "Tom and I broke up" ends "my boyfriend Tom"
    owned = memory.facts(status="all", subject=asker, user=user)
    known = people_named(owned)
    said = sorted(
        (
            f
            for f in owned
            if f.kind == "relation"
            and f.predicate in words
            and one_person(person, f.object or "", known)  # "Is Gerald still my manager?" of Gerald Whitcombe
            and f.sources
            and f.modality in ("asserted", "negated")
            and instants.at_or_before(f.mentioned_at, now)
        ),
        key=_said_order,
    )
    if not said:
        return None
    last = said[-1]
    if last.affirms:
        # "We broke up" (no name) ended the partner that held then, and "I have a new boss, Grace" the boss Finn,
        # once said by ``now``
        by_id = {f.id: f for f in owned}
        left = left_since(last, leavings(memory.facts(status="active", user=user), now), now, known)  # "... retired"
        ending = [*ended_by(last, couple_endings(owned)), *replaced_by(last, by_id), *left]
        endings = [f for f in ending if instants.at_or_before(f.mentioned_at, now)]
        return RelationHeld(not endings, (last, *endings[:1]))
    ended = [f for f in said[:-1] if f.affirms]
    return RelationHeld(False, (*ended[-1:], last))
