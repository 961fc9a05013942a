"""Facts that answer a question by their predicate or name a person by a relation (pure; the offline reader asks
them after the current-state facts).

"What is Maya's dog called?" is answered by "Maya's dog is Biscuit" (subject Maya, predicate ``dog``); "What does Tom
like?" by every "Tom likes ..." fact. A fact answers when every word of its predicate is one of the question's
content words (stemmed, the subject's names left out), it holds (active, not negated), it quotes its source, and
the question does not already say its value ("Does Maya's dog Biscuit bark?" asks something else). The question's
other content words must stand in the fact or its quotes ("What kind of music does John like?" is not answered by
"John likes reading"), but for the words that only ask for a value (kind, type, name, called). Only facts
about who someone is and has (relations, attributes, states, preferences): an event's object is whatever followed
its verb ("finished reading" for 'I finished reading "The Hobbit"'), which the sentence reader cuts better.

Relations name people both ways: "Who is Priya's fiancé?" (the question names Marcus by the relation that gave his
alias) is answered "Marcus"; "Who is Grace?" is answered by what the relation facts naming her say: "Maya's
manager".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from sodamem.answer.leavings import leavings, left_since, people_named
from sodamem.ingest.entities import entity_key, one_person
from sodamem.model import FactKind, LinkType
from sodamem.porter import stem
from sodamem.records import FactRecord
from sodamem.retrieve.fts_query import STOPWORDS
from sodamem.roles import PARTNER_PREDICATES, role_of

MAX_FACTS = 5  # values said in one answer
KINDS = frozenset({FactKind.RELATION, FactKind.ATTRIBUTE, FactKind.STATE, FactKind.PREFERENCE})
ASKING_WORDS = frozenset(stem(w) for w in ("kind", "type", "sort", "name", "called"))
_ARTICLE = re.compile(r"^(?:a|an)\s+", re.IGNORECASE)  # "a puppy": the value is "puppy" ("The Hobbit" keeps its own)
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class FactAnswer:
    """An answer read from facts: its text, the facts it cites, and what they say (the answer's detail)."""

    text: str
    facts: list[FactRecord]
    detail: str


def predicate_stems(predicate: str) -> frozenset[str]:
    """The stemmed content words of a predicate: ``favorite_food`` -> {favorit, food}; ``is_a`` -> {}."""
    words = (w.lower() for w in _WORD.findall(predicate))
    return frozenset(stem(w) for w in words if w not in STOPWORDS)


def facts_answering(question: str, asked_stems: set[str], facts: Iterable[FactRecord]) -> list[FactRecord]:
    """The facts among ``facts`` whose predicate the question asks for (see the module), oldest first, one per
    value, at most ``MAX_FACTS``. ``asked_stems``: the question's stemmed content words, without the subject's."""
    said = question.casefold()
    found: dict[str, FactRecord] = {}
    for fact in sorted(facts, key=lambda f: (f.mentioned_at, f.id)):
        words = predicate_stems(fact.predicate)
        if not words or not words <= asked_stems:
            continue
        if not asked_stems - words - ASKING_WORDS <= _stems_of(fact.text, *(s.quote for s in fact.sources)):
            continue
        if fact.kind not in KINDS or fact.status != "active" or not fact.affirms or not fact.sources:
            continue
        value = fact_value(fact)
        if not value:
            continue
        if value.casefold() in said:
            continue
        found.setdefault(value.casefold(), fact)
    facts_found = list(found.values())
    if any(f.kind == FactKind.RELATION for f in facts_found):  # "Mango, Chai", not "2, Mango, Chai"
        facts_found = [f for f in facts_found if not f.predicate.startswith("has_")]
    return facts_found[:MAX_FACTS]


def fact_value(fact: FactRecord) -> str:
    """What a fact says its subject is or has, as an answer: its object, without a leading "a"/"an"."""
    return _ARTICLE.sub("", " ".join((fact.object or "").split()))


def _stems_of(*texts: str) -> set[str]:
    return {stem(w.lower()) for text in texts for w in _WORD.findall(text)}


def by_predicate(question: str, asked_stems: set[str], facts: Iterable[FactRecord]) -> FactAnswer | None:
    """The values of the facts the question asks for by their predicate (``facts_answering``), comma-separated."""
    found = facts_answering(question, asked_stems, facts)
    if not found:
        return None
    return FactAnswer(", ".join(fact_value(f) for f in found), found, "; ".join(f.text for f in found))


def named_by_relation(words: str, name: str, facts: Iterable[FactRecord]) -> FactAnswer | None:
    """``name``, for a question that names that person by the relation ``words`` ("Priya's fiancé"), citing the
    relation fact that says so ("Priya's fiancé is Marcus")."""
    said = [f for f in facts if _relation(f, name) and f.text.startswith(words)]
    return FactAnswer(name, said[:1], said[0].text) if said else None


def relations_of(name: str, facts: Iterable[FactRecord], now: datetime | None = None) -> FactAnswer | None:
    """What the active relation facts naming ``name`` say that person is to others ("Maya's manager is Grace":
    "Maya's manager"), or was ("Finn is no longer user's boss": "user's former boss", cited with the relation it
    ended), in the order of ``facts`` (of any status)."""
    facts = list(facts)
    known = people_named(facts)
    named = [f for f in facts if _relation(f, name)]
    if not named:  # "Who is Gerald?" of "my line manager, Gerald Whitcombe"
        fuller = {other for other in known if other != name and one_person(name, other, known)}
        if len(fuller) == 1:
            name = fuller.pop()
            named = [f for f in facts if _relation(f, name)]
    couple_ended = couple_endings(facts)
    said: list[tuple[str, list[FactRecord]]] = []
    # a partner again since ("We broke up", then "my boyfriend Tom is sweet"): no former one
    again = any(f.status == "active" and f.affirms and f.predicate in PARTNER_PREDICATES for f in named)
    by_id = {f.id: f for f in facts}
    left = leavings(facts, now)
    for fact in named:
        if fact.status == "active" and (
            gone := left_since(fact, left, known=known)
        ):  # "my dentist Dr. Ferreira", "... retired"
            role = _role(fact, name, named)
            if role is not None and role[1]:
                owner, relation, cited = role
                said.append((f"{owner}'s former {relation}", [*cited, *gone[:1]]))
                continue
        if fact.status != "active":
            endings = [] if again else ended_by(fact, couple_ended)  # "My boyfriend Tom", then "We broke up"
            endings = endings or replaced_by(fact, by_id)  # "my boss Finn", then "I have a new boss, Grace"
            role = _role(fact, name, named) if endings and fact.affirms else None
            if role is not None:
                owner, relation, cited = role
                was = f"{owner}'s former {relation}" if relation else f"someone {owner} dated"
                said.append((was, [*cited, *endings]))
        elif fact.text.endswith(f" is {name}"):
            said.append((fact.text[: -len(f" is {name}")], [fact]))
        elif fact.affirms and (role := _role(fact, name, named)) is not None:
            owner, relation, cited = role
            said.append((f"{owner}'s {relation}" if relation else f"someone {owner} dates", cited))
        elif fact.denies and fact.text.startswith(ended := f"{name} is no longer "):
            owner, _, relation = fact.text[len(ended) :].rpartition("'s ")
            if owner and relation:
                held = [f for f in named if f.status == "superseded" and not f.denies and _same_relation(f, fact)]
                said.append((f"{owner}'s former {relation}", [*held[-1:], fact]))
    if not said:
        return None
    roles = ", ".join(dict.fromkeys(role for role, _ in said))
    cited = list(dict.fromkeys(f for _, group in said for f in group))
    return FactAnswer(roles, cited, "; ".join(f.text for f in cited))


def _role(fact: FactRecord, name: str, named: list[FactRecord]) -> tuple[str, str | None, list[FactRecord]] | None:
    """Whose ``name`` is, by which word, and the facts saying so, for an affirming relation fact; one dated ("Sam and
    I started dating") or a partner again ("Tom and I are back together") by the word said of them before
    ("boyfriend" after "my boyfriend Tom", cited with it), else None (someone dated) or "partner"."""
    text = fact.text
    if text.endswith(f" is {name}"):
        owner, _, relation = text[: -len(f" is {name}")].rpartition("'s ")
        return (owner, relation, [fact]) if owner and relation else None
    if text.endswith(f" is dating {name}"):
        owner, default = text[: -len(f" is dating {name}")], None
    elif text.endswith(f" is back together with {name}"):
        owner, default = text[: -len(f" is back together with {name}")], "partner"
    else:
        return None
    before = [
        f
        for f in named
        if f.affirms
        and f.predicate in PARTNER_PREDICATES
        and f.text.startswith(f"{owner}'s ")
        and f.text.endswith(f" is {name}")
        and said_order(f) < said_order(fact)
    ]
    last = max(before, key=said_order, default=None)
    if last is None:
        return owner, default, [fact]
    return owner, last.text[len(f"{owner}'s ") : -len(f" is {name}")], [last, fact]


def replaced_by(fact: FactRecord, facts: Mapping[int, FactRecord]) -> list[FactRecord]:
    """Those of ``facts`` (by id) that took ``fact``'s role from its holder ("I have a new boss, Grace" after "my boss
    Finn": a role one has one holder of, ``supersede.ONE_HOLDER_ROLES``): another holder said since, linked as its
    successor."""
    return [
        newer
        for link in fact.links
        if link.direction == "in"
        and link.type == LinkType.SUPERSEDES.value
        and (newer := facts.get(link.fact_id)) is not None
        and newer.affirms
        and entity_key(newer.object or "") != entity_key(fact.object or "")
    ]


def couple_endings(facts: Iterable[FactRecord]) -> dict[int, FactRecord]:
    """A couple said as ended with no partner named ("We broke up", "I broke up with my boyfriend"), by id: each
    ended whichever partner held then (``supersede.ends_any_partner``) and is linked to it as its ending."""
    return {
        f.id: f for f in facts if f.kind == FactKind.RELATION and f.predicate == "partner" and f.denies and not f.object
    }


def ended_by(fact: FactRecord, endings: Mapping[int, FactRecord]) -> list[FactRecord]:
    """Those of ``endings`` that ended ``fact`` (a CONTRADICTS link into it)."""
    return [
        endings[link.fact_id]
        for link in fact.links
        if link.direction == "in" and link.type == LinkType.CONTRADICTS.value and link.fact_id in endings
    ]


def _same_relation(a: FactRecord, b: FactRecord) -> bool:
    """One relation of one owner to one person, whatever its word ("my boss Finn", "Finn is no longer my manager")."""
    return (a.subject, role_of(a.predicate), entity_key(a.object or "")) == (
        b.subject,
        role_of(b.predicate),
        entity_key(b.object or ""),
    )


def _relation(fact: FactRecord, name: str) -> bool:
    return fact.kind == FactKind.RELATION and fact.object == name and bool(fact.sources)


def said_order(fact: FactRecord) -> tuple[str, int, int, int]:
    """Where a relation fact's name was said ("two kids, Mia and Leo": Mia first, though both cite one span)."""
    source = fact.sources[0]
    return source.timestamp, source.turn_index, source.char_start, source.quote.find(fact.object or "")
