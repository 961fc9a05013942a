"""Questions about someone's relative ("Where does my brother live?", "What does Maya's aunt do?"): who that is.

The relative is the question's subject when it follows the question's auxiliary ("does my brother", "is Maya's
sister"). It is found in memory two ways, both kept: the relation facts of its owner ("my brother Tom came over":
the user's ``brother`` is Tom, and Tom's facts count, the relation fact cited beside them), and the role entity
itself ("my sister moved to Paris": the subject "user's sister").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from sodamem.answer.leavings import leavings, left_since, people_named
from sodamem.answer.pets import pets_died
from sodamem.answer.predicate_facts import couple_endings, ended_by, said_order
from sodamem.ingest.entities import entity_key
from sodamem.ingest.extract.rules_vocabulary import NAME, REL, REL_MOD, snake
from sodamem.memory import Memory
from sodamem.records import FactRecord
from sodamem.roles import PARTNER_PREDICATES, asked_words

# the relatives in between: "sister's " in "my sister's husband"
_VIA = rf"(?P<via>(?:{REL_MOD}(?:{REL})['’]s\s+)*)"
_RELATIVE = re.compile(
    rf"\b(?i:does|did|do|is|was|are|were|has|had)\s+(?:(?P<my>[Mm]y)|(?P<owner>{NAME})['’]s)\s+{_VIA}"
    rf"{REL_MOD}(?P<rel>{REL})(?![\w'’])"
)


# a relative named by relation only: "my friend Tom" is Tom, whoever the memory says his friends are
_ANY_RELATIVE = re.compile(
    rf"\b(?:(?P<my>[Mm]y)|(?P<owner>{NAME})['’]s)\s+{_VIA}{REL_MOD}(?P<rel>{REL})(?![\w])(?!,?\s+{NAME})"
)


@dataclass(frozen=True, slots=True)
class Relative:
    owner: str  # the asker for "my", else the name before "'s"
    relation: str  # "brother", "best friend"
    via: tuple[str, ...] = ()  # the relatives in between: ("sister",) for "my sister's husband"


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
    return _relative(m, asker)


def _relative(m: re.Match[str], asker: str) -> Relative:
    owner = asker if m["my"] else m["owner"]
    via = tuple(" ".join(r.lower().split()) for r in re.findall(rf"(?:{REL_MOD})({REL})['’]s", m["via"] or ""))
    return Relative(owner, " ".join(m["rel"].lower().split()), via)


def relative_named_asked(question: str, asker: str) -> Relative | None:
    """The relative whose name the question asks: "What is my cat's name?", "Who is Ines married to?"."""
    m = _NAMES_ASKED.match(question)
    return _relative(m, asker) if m is not None else _spouse_asked(question, asker)


def relative_said(memory: Memory, user: str, relative: Relative) -> re.Pattern[str]:
    """What a text that speaks of the relative says: a kin word ("my cat", "mom") or the name a relation fact gives
    them ("Pepper" for my dog Pepper). Built once per question; each sentence is then one search."""
    kin = asked_words(relative.relation)  # the relative's own words: "mom" is no father
    owner = person_of(memory, user, relative)
    named = {snake(k) for k in kin}
    owned = memory.facts(status="all", subject=owner, user=user)
    names = sorted({f.object for f in owned if f.predicate in named and f.object})
    kin_said = rf"(?i:{'|'.join(map(re.escape, kin))})s?"
    return re.compile(rf"(?<!\w)(?:{'|'.join([kin_said, *map(re.escape, names)])})(?!\w)")


# "Who am I dating?", "Who am I seeing these days?": the asker's partner, by any word
_DATING_ASKED = re.compile(
    r"^\s*who\s+(?:am\s+I|['’]m\s+I)\s+(?:dating|seeing|going\s+out\s+with|in\s+a\s+relationship\s+with)"
    r"(?:\s+(?:now|currently|these\s+days|at\s+the\s+moment|right\s+now))?\s*\??\s*$",
    re.IGNORECASE,
)


def asks_whom_dating(question: str) -> bool:
    """ "Who am I dating?", "Who am I seeing these days?"."""
    return _DATING_ASKED.match(question) is not None


def _dating_asked(question: str, asker: str) -> Relative | None:
    """The asker's partner, by any word, where the question asks whom they date."""
    return Relative(asker, "partner") if asks_whom_dating(question) else None


def _spouse_asked(question: str, asker: str) -> Relative | None:
    if (dating := _dating_asked(question, asker)) is not None:
        return dating
    m = _MARRIED_TO.match(question)
    if m is None:
        return None
    if m["my"]:  # "my sister": her spouse, through her
        between = _relative(m, asker)
        return Relative(asker, "spouse", (*between.via, between.relation))
    return Relative(m["owner"] or asker, "spouse")


def person_of(memory: Memory, user: str, relative: Relative) -> str:
    """Whose relative is asked about: the owner, or for "my sister's husband" the sister (her name, when the memory
    names exactly one; else the role, "user's sister", as the extractor names an unnamed relative)."""
    owner = relative.owner
    for relation in relative.via:
        named = {snake(k) for k in asked_words(relation)}
        owned = memory.facts(status="active", subject=owner, user=user)
        names = {f.object for f in owned if f.kind == "relation" and f.predicate in named and f.object and f.affirms}
        owner = names.pop() if len(names) == 1 else f"{owner}'s {relation}"
    return owner


def relatives_named(question: str, asker: str) -> list[Relative]:
    """Every relative the question names: "What is my wife's name?" -> ``[Relative(asker, "wife")]``; "Who am I
    seeing?" names the asker's partner."""
    dating = _dating_asked(question, asker)
    return [dating] if dating is not None else [_relative(m, asker) for m in _ANY_RELATIVE.finditer(question)]


_NAMES_ASKED = re.compile(
    rf"^\s*(?:(?:what|who)(?:\s+(?:is|are|was|were)|['’]s))\s+(?:the\s+names?\s+of\s+)?"
    rf"(?:(?P<my>[Mm]y)|(?P<owner>{NAME})['’]s)\s+{_VIA}{REL_MOD}(?P<rel>{REL})(?:['’]s|['’])?(?:\s+names?|\s+called)?"
    r"(?:\s+(?:now|currently|these\s+days|at\s+the\s+moment))?\s*\??\s*$",
    re.IGNORECASE,
)
# "Who is Ines married to?", "Who is my sister married to?", "Who am I married to?": the spouse asked by name
_MARRIED_TO = re.compile(
    rf"^\s*(?i:who)\s+(?:is|was|am|['’]s)\s+(?:(?P<me>I)|(?P<my>[Mm]y)\s+{_VIA}{REL_MOD}(?P<rel>{REL})|(?P<owner>{NAME}))"
    r"\s+married\s+to\s*\??\s*$"
)
_CHILDREN = frozenset("children child kids kid sons son daughters daughter".split())


@dataclass(frozen=True, slots=True)
class NamedRelatives:
    """The relation facts naming the relatives a question asks about: those that hold, and, where none holds, those
    a later denial ended ("Tom and I broke up" ends "my boyfriend Tom"), with those denials."""

    held: list[FactRecord]
    ended: list[FactRecord]
    endings: list[FactRecord]
    # said only as over ("my old boss Finn"), and none said to hold: who was, not that no one is now
    over: list[FactRecord] = field(default_factory=list)


def relatives_asked_by_name(memory: Memory, user: str, question: str, asker: str, asked_at: datetime) -> NamedRelatives:
    """For "What are my children's names?" / "Who is Priya's fiancé?": the relation facts that name them (kin words
    count: "children" are the kids, sons and daughters the user spoke of), oldest first; a pet's death counts once
    said by ``asked_at``."""
    relative = relative_named_asked(question, asker)
    if relative is None:
        return NamedRelatives([], [], [])
    owner, relation = person_of(memory, user, relative), relative.relation
    words = set(asked_words(relation)) | {relation, relation.removesuffix("s")}
    if relation in _CHILDREN and relation not in ("son", "sons", "daughter", "daughters"):
        words |= _CHILDREN  # "children" and "kids" are any of them; a son is no daughter
    predicates = {snake(w) for w in words}
    owned = memory.facts(status="all", subject=owner, user=user)
    named = [f for f in owned if f.kind == "relation" and f.predicate in predicates and f.object and f.sources]
    held = [f for f in named if f.status == "active" and f.affirms]
    if not held and relation in _ENGAGED:
        # "Who is my fiancée?" after "my girlfriend Priya" and "Priya and I are getting married": the partner said by
        # another word, whom a wedding to come names
        marrying = {entity_key(f.object or "") for f in owned if f.predicate == "spouse" and f.modality == "planned"}
        held = [
            f
            for f in owned
            if f.kind == "relation"
            and f.predicate in PARTNER_PREDICATES
            and f.object
            and f.sources
            and f.status == "active"
            and f.affirms
            and entity_key(f.object) in marrying
        ]
    deaths = pets_died(memory, user, held, question, asked_at)
    if deaths:  # "Which dogs do I have now?" after "Peanut passed away": Peanut no longer
        living = [f for f in held if f.id not in deaths]
        if living:
            return NamedRelatives(sorted(living, key=said_order), [], [])
        gone = [f for f in held if f.id in deaths]
        return NamedRelatives([], sorted(gone, key=said_order), list(dict.fromkeys(deaths.values())))
    # the store's leavings are read only where a holder is ("What's my dentist's name?" after "Dr Ferreira retired")
    left = leavings(memory.facts(status="active", user=user), asked_at) if held else []
    known = people_named(owned)
    leaving = {f.id: by[0] for f in held if (by := left_since(f, left, asked_at, known))}
    if leaving:  # "What's my dentist's name?" after "Dr Ferreira retired": no one now, or another
        staying = [f for f in held if f.id not in leaving]
        if staying:
            return NamedRelatives(sorted(staying, key=said_order), [], [])
        return NamedRelatives([], sorted(held, key=said_order), list(dict.fromkeys(leaving.values())))
    if held:
        return NamedRelatives(sorted(held, key=said_order), [], [])
    denials = [f for f in owned if f.kind == "relation" and f.status == "active" and f.denies and f.object]
    ended_names = {entity_key(f.object or "") for f in denials}
    ended = [f for f in named if f.affirms and entity_key(f.object or "") in ended_names]
    endings = [f for f in denials if any(entity_key(f.object or "") == entity_key(e.object or "") for e in ended)]
    # "We broke up" ended whichever partner held then (``supersede.ends_any_partner``): linked from the ending
    couple_ended = couple_endings(owned)
    for fact in named:
        by = ended_by(fact, couple_ended)
        if by and fact.affirms and fact.status != "active" and fact not in ended:
            ended.append(fact)
            endings += [f for f in by if f not in endings]
    over = [] if ended else [f for f in denials if f.predicate in predicates]
    return NamedRelatives([], sorted(ended, key=said_order), endings, sorted(over, key=said_order))


_ENGAGED = frozenset("fiance fiancé fiancee fiancée".split())


def relative_subjects(memory: Memory, user: str, relative: Relative) -> tuple[list[FactRecord], list[str]]:
    """The relation facts naming such a relative ("my father Jon") and the subjects their facts may stand under:
    the names, then the role ("user's father")."""
    owner = person_of(memory, user, relative)
    owned = memory.facts(status="active", subject=owner, user=user)
    kin = asked_words(relative.relation)
    named_by = {snake(k) for k in kin}
    relations = [f for f in owned if f.kind == "relation" and f.predicate in named_by and f.object and f.affirms]
    roles = [f"{owner}'s {k}" for k in kin]
    return relations, [*dict.fromkeys(f.object for f in relations if f.object), *roles]


def relative_facts(memory: Memory, user: str, relative: Relative, predicates: tuple[str, ...]) -> RelativeFacts:
    """The relative's active, positive facts with one of ``predicates`` (a trailing "*" is a prefix), when they are
    all about one person; with the relation facts naming that person."""
    relations, subjects = relative_subjects(memory, user, relative)
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


def relation_said(memory: Memory, user: str, relative: Relative) -> bool:
    """Whether a relation fact names such a relative by the asked word ("my girlfriend"), or, for a girlfriend or
    boyfriend, as someone one dates; a "partner" is no answer to "Who is my wife?"."""
    words = {relative.relation, relative.relation.removesuffix("s")}
    if relative.relation in ("girlfriend", "boyfriend", "gf", "bf"):
        words.add("dating")
    status = "active"
    if relative.relation == "partner":  # "Who am I seeing?": a partner by any word, one that was too
        words, status = words | PARTNER_PREDICATES, "all"
    owner = person_of(memory, user, relative)
    return any(
        f.kind == "relation" and f.predicate in {snake(w) for w in words} and f.object and f.affirms
        for f in memory.facts(status=status, subject=owner, user=user)
    )


def relative_mentioned(relative: Relative, texts: Iterable[str]) -> bool:
    """Whether any of ``texts`` names such a relative ("mother" is also "mom"; "children" are also "my son")."""
    kin = {*asked_words(relative.relation), *_MENTIONED_AS.get(relative.relation, ())}
    words = "|".join(re.escape(k).replace("_", r"[\s-]+") for k in sorted(kin))  # "team_lead" is said "team lead"
    said = re.compile(rf"(?<!\w)(?:{words})s?(?!\w)", re.IGNORECASE)
    return any(said.search(text) for text in texts)


# Words that mention one of a group (not the same relative: a son is no daughter, so these only tell whether
# anyone of the kind was mentioned at all)
_MENTION_GROUPS = (
    "children child kids kid son sons daughter daughters boys girls",
    "parents parent folks mother mom mum father dad",
    "dogs dog pup pups puppy puppies",
    "cats cat kitten kittens kitty",
    "fiance fiancé fiancee fiancée engaged",
    "husband wife spouse married",
    "partner together dating boyfriend girlfriend",
)
_MENTIONED_AS: dict[str, frozenset[str]] = {
    word: frozenset(kin for group in _MENTION_GROUPS if word in group.split() for kin in group.split())
    for group in _MENTION_GROUPS
    for word in group.split()
} | dict.fromkeys(("pets", "pet"), frozenset(" ".join(_MENTION_GROUPS[2:]).split()) | {"pets", "pet"})


def _fits(fact: FactRecord, predicates: tuple[str, ...]) -> bool:
    return any(fact.predicate.startswith(p[:-1]) if p.endswith("*") else fact.predicate == p for p in predicates)
