"""Pets one has or had: a named pet's death said since it was named ("we had to put Biscuit down", "we lost Biscuit
last week", unless a later turn finds it again), and "Do I have a dog?" / "Do I still have Biscuit?" answered from
the relation facts that name one's pets when one of them died.

A pet that died is had no more, while a grandmother who died is still one's grandmother: so the relatives reader
(``answer/relatives.py``) asks ``pets_died`` of the relation facts it names, and only pets count.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from sodamem import instants
from sodamem.answer.predicate_facts import FactAnswer, said_order
from sodamem.ingest.entities import entity_key
from sodamem.ingest.extract.rules_vocabulary import BREEDS, PET_KIND, PET_KINDS, REL_SINGLE
from sodamem.memory import Memory
from sodamem.records import FactRecord

# "My uncle Max passed away": a person of that name, not the dog Max (but "My husband and I had to put Biscuit down"
# is Biscuit's death)
_PERSONS = rf"(?:{'|'.join(sorted(k for k in REL_SINGLE if k not in PET_KINDS))})"
_ASKS_THE_PAST = re.compile(r"\b(?:was|were|did|used\s+to|had)\b", re.IGNORECASE)


def pets_died(
    memory: Memory, user: str, held: list[FactRecord], question: str, asked_at: datetime
) -> dict[int, FactRecord]:
    """The pets among ``held`` said to have died since they were named (a relation fact's id -> the death said), for
    a question of what one has now ("What are my dogs called?"; not "What was my dog called?"): a pet that died is
    had no more, while a grandmother who died is still one's grandmother. ``asked_at``: only deaths said by then."""
    deaths: dict[int, FactRecord] = {}
    if _ASKS_THE_PAST.search(question):
        return deaths
    for pet in held:
        if pet.predicate not in PET_KINDS or not pet.object:
            continue
        said = instants.sort_key(pet.mentioned_at)
        died = [
            f
            for f in memory.facts(status="active", subject=pet.object, user=user)
            if f.predicate == "died"
            and f.affirms
            and instants.sort_key(f.mentioned_at) >= said
            and instants.at_or_before(f.mentioned_at, asked_at)
            and f.sources
            and not _a_person_died(pet.object, f)
        ]
        if died and not _found_since(memory, user, pet.object, died[0], asked_at):
            deaths[pet.id] = died[0]
    return deaths


# "Update: Biscuit is home!! Someone found him": a pet "lost" was lost and found
_FOUND = (
    r"\b(?:found\s+(?:him|her|them|{name})|{name}\s+(?:is|'s)\s+(?:home|back)|came\s+(?:home|back)|turned\s+up|"
    r"safe\s+and\s+sound)\b"
)
_LOST = re.compile(r"\blost\b", re.IGNORECASE)


def _found_since(memory: Memory, user: str, name: str, death: FactRecord, asked_at: datetime) -> bool:
    """Whether ``death`` was said as a loss ("we lost Biscuit last week") and a turn said after it (by ``asked_at``)
    names the pet as found again."""
    if not any(_LOST.search(source.quote) for source in death.sources):
        return False
    named = re.compile(rf"\b{re.escape(name)}\b", re.IGNORECASE)
    found = re.compile(_FOUND.format(name=re.escape(name)), re.IGNORECASE)  # not "found an old video of Biscuit"
    said = instants.sort_key(death.mentioned_at)
    return any(
        instants.sort_key(hit.timestamp) > said
        and instants.at_or_before(hit.timestamp, asked_at)
        and named.search(hit.turn_text)
        and found.search(hit.turn_text)
        for hit in memory.search(f"{name} found home back", k=10, user=user, now=asked_at)
    )


# "Do I have a dog?", "Do we still have any cats?", "Do I still have Biscuit?": whether one has a pet of a kind, or
# the pet of that name
_HAVE_A_PET = re.compile(
    rf"^\s*(?i:do|does)\s+(?i:I|we)\s+(?i:still\s+)?(?i:have|own|got)\s+(?:(?i:a|an|any)\s+"
    rf"(?P<kind>(?i:{PET_KIND}))s?|(?P<name>[^\W\d_][\w'’-]*))"
    r"(?i:\s+(?:now|anymore|any\s+more|still|at\s+the\s+moment))?\s*\??\s*$"
)
# the words of each kind's young and breeds: a puppy is a dog, a beagle one too
_YOUNG = {"puppy": "dog", "pup": "dog", "kitten": "cat", "kitty": "cat", "bunny": "rabbit", "pony": "horse"}
_KIND_OF = {**BREEDS, **_YOUNG}


def _kind_query(kind: str) -> str:
    """A search for turns speaking of a kind of pet: the kind and its young, singular and plural (the breeds are too
    many words for one search; a turn found is then read for them all)."""
    words = [kind, *(w for w, k in _YOUNG.items() if k == kind)]
    return " ".join(f for w in words for f in (w, f"{w[:-1]}ies" if w.endswith("y") else f"{w}s"))


@dataclass(frozen=True, slots=True)
class PetsAsked:
    """The pets a question asks whether one has (of a kind, or by name), named by relation facts, where one of them
    died: those alive, and the deaths of the others."""

    living: list[FactRecord]
    deaths: list[FactRecord]


def pets_asked(memory: Memory, user: str, question: str, asker: str, asked_at: datetime) -> PetsAsked | None:
    """For "Do I have a dog?" or "Do I still have Biscuit?" after "my dog Biscuit" and "we had to put Biscuit down":
    the named pets alive (none) and the deaths said by ``asked_at``. None when the question asks no such thing, no
    named pet of it died, or, for a kind, the asker spoke of one since the last death ("we adopted another dog"): the
    sentence readers answer then, as they always did."""
    m = _HAVE_A_PET.match(re.sub(r"\b(pupp|kitt|bunn|pon)ies\b", r"\1y", question, flags=re.IGNORECASE))
    if m is None:
        return None
    said_kind = (m["kind"] or "").lower()
    kind = _KIND_OF.get(said_kind, said_kind)  # "" when a name is asked
    owned = memory.facts(status="active", subject=asker, user=user)
    pets = [f for f in owned if f.kind == "relation" and f.predicate in PET_KINDS and f.object and f.affirms]
    if kind:
        pets = [f for f in pets if _KIND_OF.get(f.predicate, f.predicate) == kind]
    else:
        pets = [f for f in pets if entity_key(f.object or "") == entity_key(m["name"])]
    deaths = pets_died(memory, user, [f for f in pets if f.sources], question, asked_at)
    if not deaths:
        return None
    living = [f for f in pets if f.id not in deaths]
    last_death = max(instants.sort_key(f.mentioned_at) for f in deaths.values())
    if kind and not living and _spoken_of_since(memory, user, kind, last_death, asked_at):
        return None
    return PetsAsked(sorted(living, key=said_order), list(dict.fromkeys(deaths.values())))


def _kind_said(kind: str) -> re.Pattern[str]:
    """The words of a kind of pet in a turn: the kind, its young and breeds, singular and plural."""
    words = [w for w, k in _KIND_OF.items() if k == kind] + [kind]
    forms = {f for w in words for f in (w, f"{w}s", f"{w}es", f"{w[:-1]}ies" if w.endswith("y") else w)}
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, sorted(forms)))})\b", re.IGNORECASE)


def _spoken_of_since(memory: Memory, user: str, kind: str, since: datetime, asked_at: datetime) -> bool:
    """Whether a turn said after ``since`` (and by ``asked_at``) names a pet of ``kind`` ("we adopted another dog")."""
    said = _kind_said(kind)
    return any(
        instants.sort_key(hit.timestamp) > since
        and instants.at_or_before(hit.timestamp, asked_at)
        and said.search(hit.turn_text)
        for hit in memory.search(_kind_query(kind), k=20, user=user, now=asked_at)
    )


def _a_person_died(name: str, death: FactRecord) -> bool:
    """Whether ``death`` is said of a person named ``name``: a kin word names them, before or beside the name ("my
    uncle Max passed away", "My dad, Max, passed away", "Max, my uncle, passed away")."""
    named = re.escape(name)
    person = re.compile(
        rf"\b{_PERSONS},?\s+{named}\b|\b{named},?\s+(?:my|our|his|her|their)\s+{_PERSONS}\b", re.IGNORECASE
    )
    return any(person.search(source.quote) for source in death.sources)


# "How many dogs do I have?", "How many cats have we got now?", "How many puppies do I own?"
_HOW_MANY = re.compile(
    rf"^\s*(?i:how\s+many)\s+(?P<kind>(?i:{PET_KIND}))s?\s+(?i:do|have)\s+(?i:I|we)\s+(?i:still\s+)?"
    r"(?i:have|own|got)?(?i:\s+(?:now|at\s+the\s+moment|these\s+days))?\s*\??\s*$"
)
# a pet of the kind got since the pets were counted or named: "we adopted another dog", "got a third dog, Luna"
_NEW_PET = re.compile(
    r"\b(?:another|new|second|third|fourth|adopt(?:ed|ing)?|rescued?|got\s+(?:a|an|our|my)|bought\s+(?:a|an)|brought\s+home"
    r"|welcomed?|joined\s+the\s+family)\b",
    re.IGNORECASE,
)


def pets_counted(memory: Memory, user: str, question: str, asker: str, asked_at: datetime) -> FactAnswer | None:
    """For "How many dogs do I have?" after "We have two dogs, Biscuit and Rex" and "we had to put Biscuit down":
    "one (Rex)". The pets counted are the most the asker counted before the last death ("I have 3 dogs": the
    ``has_dog`` facts) or those named, less those whose death was said by ``asked_at``. A breed or a young asked
    ("How many beagles ...") counts those named by that word. None when no named pet of the kind died, or a pet of
    the kind was got that no fact counts or names ("we adopted another dog"): the sentences answer then."""
    m = _HOW_MANY.match(re.sub(r"\b(pupp|kitt|bunn|pon)ies\b", r"\1y", question, flags=re.IGNORECASE))
    if m is None:
        return None
    said_kind = m["kind"].lower()
    kind = _KIND_OF.get(said_kind, said_kind)
    owned = [f for f in memory.facts(status="active", subject=asker, user=user) if f.affirms and f.sources]
    owned = [f for f in owned if instants.at_or_before(f.mentioned_at, asked_at)]
    pets = [
        f
        for f in owned
        if f.kind == "relation" and f.predicate in PET_KINDS and f.object
        if (f.predicate == said_kind if said_kind != kind else _KIND_OF.get(f.predicate, f.predicate) == kind)
    ]
    deaths = pets_died(memory, user, pets, question, asked_at)
    if not deaths:
        return None
    last_death = max(instants.sort_key(f.mentioned_at) for f in deaths.values())
    # every count said before it, superseded ones too: "I have 3 dogs", then "I have a dog called Biscuit" (has_dog 1)
    counts = [
        f
        for f in memory.facts(status="all", subject=asker, user=user)
        if f.predicate == f"has_{said_kind}" and f.affirms and instants.sort_key(f.mentioned_at) < last_death
    ]
    if _got_otherwise(memory, user, asker, kind, asked_at, [*pets, *counts, *deaths.values()]):
        return None
    names = {entity_key(f.object or "") for f in pets}
    total = max([len(names), *(int(f.object or "0") for f in counts if (f.object or "").isdigit())])
    living = sorted((f for f in pets if f.id not in deaths), key=said_order)
    gone = {entity_key(f.object or "") for f in pets if f.id in deaths}
    left = total - len(gone)
    cited = [*living, *dict.fromkeys(deaths.values())]
    if left <= 0:
        previously = ", ".join(dict.fromkeys(f.object or "" for f in pets if f.id in deaths))
        return FactAnswer(f"none now (previously {previously})", cited, "")
    count = _COUNT_WORDS.get(left, str(left))
    living_names = list(dict.fromkeys(f.object or "" for f in living))
    return FactAnswer(f"{count} ({', '.join(living_names)})" if len(living_names) == left else count, cited, "")


_COUNT_WORDS = dict(enumerate("zero one two three four five six seven eight nine ten".split()))


def _got_otherwise(
    memory: Memory, user: str, asker: str, kind: str, asked_at: datetime, known: list[FactRecord]
) -> bool:
    """Whether a statement of the asker's said by ``asked_at`` speaks of getting a pet of ``kind`` ("we adopted
    another dog", "we got our 8 week puppy Pip today!") that no fact counted or named: none of ``known``'s turns (an
    assistant's "adopting another dog can help" is none)."""
    known_turns = {(s.session_id, s.turn_index) for f in known for s in f.sources}
    said = _kind_said(kind)
    return any(
        hit.speaker == asker
        and not hit.turn_text.rstrip().endswith("?")
        and instants.at_or_before(hit.timestamp, asked_at)
        and (hit.session_id, hit.turn_index) not in known_turns
        and said.search(hit.turn_text)
        and _NEW_PET.search(hit.turn_text)
        for hit in memory.search(_kind_query(kind), k=20, user=user, now=asked_at)
    )
