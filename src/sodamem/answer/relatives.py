"""Questions about someone's relative ("Where does my brother live?", "What does Maya's aunt do?"): who that is.

The relative is the question's subject when it follows the question's auxiliary ("does my brother", "is Maya's
sister"). It is found in memory two ways, both kept: the relation facts of its owner ("my brother Tom came over":
the user's ``brother`` is Tom, and Tom's facts count, the relation fact cited beside them), and the role entity
itself ("my sister moved to Paris": the subject "user's sister").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sodamem.ingest.entities import entity_key
from sodamem.ingest.extract.rules_vocabulary import NAME, REL, REL_MOD, snake
from sodamem.memory import Memory
from sodamem.records import FactRecord

_RELATIVE = re.compile(
    rf"\b(?i:does|did|do|is|was|are|were|has|had)\s+(?:(?P<my>[Mm]y)|(?P<owner>{NAME})['’]s)\s+"
    rf"{REL_MOD}(?P<rel>{REL})(?![\w'’])"
)


# a relative named by relation only: "my friend Tom" is Tom, whoever the memory says his friends are
_ANY_RELATIVE = re.compile(
    rf"\b(?:(?P<my>[Mm]y)|(?P<owner>{NAME})['’]s)\s+{REL_MOD}(?P<rel>{REL})(?![\w])(?!,?\s+{NAME})"
)


@dataclass(frozen=True, slots=True)
class Relative:
    owner: str  # the asker for "my", else the name before "'s"
    relation: str  # "brother", "best friend"


@dataclass(frozen=True, slots=True)
class RelativeFacts:
    """A relative's facts that fit, and the relation facts that say who the relative is (cited with them)."""

    facts: list[FactRecord]
    relations: list[FactRecord]


def relative_asked_about(question: str, asker: str) -> Relative | None:
    """``"Where does my brother live?"`` -> ``Relative(asker, "brother")``; None when no relative is the subject."""
    m = _RELATIVE.search(question)
    if m is None:
        return None
    owner = asker if m["my"] else m["owner"]
    return Relative(owner, " ".join(m["rel"].lower().split()))


def relatives_named(question: str, asker: str) -> list[Relative]:
    """Every relative the question names: "What is my wife's name?" -> ``[Relative(asker, "wife")]``."""
    return [
        Relative(asker if m["my"] else m["owner"], " ".join(m["rel"].lower().split()))
        for m in _ANY_RELATIVE.finditer(question)
    ]


_NAMES_ASKED = re.compile(
    rf"^\s*(?:(?:what|who)(?:\s+(?:is|are|was|were)|['’]s))\s+(?:(?P<my>[Mm]y)|(?P<owner>{NAME})['’]s)\s+"
    rf"{REL_MOD}(?P<rel>{REL})(?:['’]s|['’])?(?:\s+names?|\s+called)?"
    r"(?:\s+(?:now|currently|these\s+days|at\s+the\s+moment))?\s*\??\s*$",
    re.IGNORECASE,
)
_CHILDREN = frozenset("children child kids kid sons son daughters daughter".split())


@dataclass(frozen=True, slots=True)
class NamedRelatives:
    """The relation facts naming the relatives a question asks about: those that hold, and, where none holds, those
    a later denial ended ("Tom and I broke up" ends "my boyfriend Tom"), with those denials."""

    held: list[FactRecord]
    ended: list[FactRecord]
    endings: list[FactRecord]


def relatives_asked_by_name(memory: Memory, user: str, question: str, asker: str) -> NamedRelatives:
    """For "What are my children's names?" / "Who is Priya's fiancé?": the relation facts that name them (kin words
    count: "children" are the kids, sons and daughters the user spoke of), oldest first."""
    m = _NAMES_ASKED.match(question)
    if m is None:
        return NamedRelatives([], [], [])
    owner = asker if m["my"] else m["owner"]
    relation = " ".join(m["rel"].lower().split())
    words = set(kin_words(relation)) | {relation, relation.removesuffix("s")}
    if relation in _CHILDREN and relation not in ("son", "sons", "daughter", "daughters"):
        words |= _CHILDREN  # "children" and "kids" are any of them; a son is no daughter
    predicates = {snake(w) for w in words}
    owned = memory.facts(status="all", subject=owner, user=user)
    named = [f for f in owned if f.kind == "relation" and f.predicate in predicates and f.object and f.sources]
    held = [f for f in named if f.status == "active" and f.affirms]
    if held:
        return NamedRelatives(sorted(held, key=_said_order), [], [])
    denials = [f for f in owned if f.kind == "relation" and f.status == "active" and f.denies and f.object]
    ended_names = {entity_key(f.object or "") for f in denials}
    ended = [f for f in named if f.affirms and entity_key(f.object or "") in ended_names]
    endings = [f for f in denials if any(entity_key(f.object or "") == entity_key(e.object or "") for e in ended)]
    return NamedRelatives([], sorted(ended, key=_said_order), endings)


def _said_order(fact: FactRecord) -> tuple[str, int, int, int]:
    """Where a relation fact's name was said ("two kids, Mia and Leo": Mia first, though both cite one span)."""
    source = fact.sources[0]
    return source.timestamp, source.turn_index, source.char_start, source.quote.find(fact.object or "")


def relative_facts(memory: Memory, user: str, relative: Relative, predicates: tuple[str, ...]) -> RelativeFacts:
    """The relative's active, positive facts with one of ``predicates`` (a trailing "*" is a prefix), when they are
    all about one person; with the relation facts naming that person."""
    owned = memory.facts(status="active", subject=relative.owner, user=user)
    kin = kin_words(relative.relation)
    named_by = {snake(k) for k in kin}
    relations = [f for f in owned if f.kind == "relation" and f.predicate in named_by and f.object and f.affirms]
    roles = [f"{relative.owner}'s {k}" for k in kin]
    subjects = [*dict.fromkeys(f.object for f in relations if f.object), *roles]
    found: dict[int, FactRecord] = {}
    for subject in subjects:
        for fact in memory.facts(status="active", subject=subject, user=user):
            if _fits(fact, predicates) and fact.affirms and fact.sources:
                found.setdefault(fact.id, fact)
    facts = list(found.values())
    if len({entity_key(f.subject) for f in facts}) != 1:
        return RelativeFacts([], [])
    who = entity_key(facts[0].subject)
    return RelativeFacts(facts, [r for r in relations if r.object and entity_key(r.object) == who])


def relative_mentioned(relative: Relative, texts: Iterable[str]) -> bool:
    """Whether any of ``texts`` names such a relative ("mother" is also "mom"; "children" are also "my son")."""
    kin = {*kin_words(relative.relation), *_MENTIONED_AS.get(relative.relation, ())}
    said = re.compile(rf"(?<!\w)(?:{'|'.join(map(re.escape, sorted(kin)))})s?(?!\w)", re.IGNORECASE)
    return any(said.search(text) for text in texts)


def kin_words(relation: str) -> tuple[str, ...]:
    """The words for one relative, the asked one first: a question's "mother" is the "mom" the user spoke of."""
    return (relation, *(k for k in _KIN_WORDS.get(relation, ()) if k != relation))


_KIN_GROUPS = (  # each group names one relative
    "mother mom mum mama mommy mummy ma",
    "father dad daddy papa pa",
    "sister sis",
    "brother bro",
    "grandmother grandma granny nana gran",
    "grandfather grandpa grandad granddad",
    "husband hubby spouse partner",
    "wife spouse partner",
    "boyfriend bf partner dating",  # "I'm dating Emil": the boyfriend asked of
    "girlfriend gf partner dating",
)
_KIN_WORDS: dict[str, tuple[str, ...]] = {
    word: tuple(sorted({kin for group in _KIN_GROUPS if word in group.split() for kin in group.split()}))
    for group in _KIN_GROUPS
    for word in group.split()
}


# Words that mention one of a group (not the same relative: a son is no daughter, so these only tell whether
# anyone of the kind was mentioned at all)
_MENTION_GROUPS = (
    "children child kids kid son sons daughter daughters boys girls",
    "parents parent folks mother mom mum father dad",
    "dogs dog pup pups puppy puppies",
    "cats cat kitten kittens kitty",
)
_MENTIONED_AS: dict[str, frozenset[str]] = {
    word: frozenset(kin for group in _MENTION_GROUPS if word in group.split() for kin in group.split())
    for group in _MENTION_GROUPS
    for word in group.split()
} | dict.fromkeys(("pets", "pet"), frozenset(" ".join(_MENTION_GROUPS[2:]).split()) | {"pets", "pet"})


def _fits(fact: FactRecord, predicates: tuple[str, ...]) -> bool:
    return any(fact.predicate.startswith(p[:-1]) if p.endswith("*") else fact.predicate == p for p in predicates)
