"""Supersession as a pure function over one slot's facts.

A slot is (user, subject entity, predicate) for functional predicates, and (user, subject, predicate, object)
for preferences. Sorting by a content-derived order key (time first) and recomputing the whole slot each time
makes the outcome independent of ingestion order: the newest fact is active, each older one is superseded at
the start of its successor and linked from it; a denial of a value that does not hold ends nothing, and a denial
of no value ("I lost my job") ends any (``resolve_slot``). One slot reaches into others: a couple said as ended
without a name ends the partner that held then, in that partner's slot (``ends_any_partner``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sodamem import instants
from sodamem.model import FactKind, FactStatus, LinkType, Modality
from sodamem.roles import HOUSEMATE_WORDS, ONE_HOLDER_ROLES, PARTNER_PREDICATES, role_of

FUNCTIONAL_PREDICATES = frozenset(
    {"lives_in", "works_at", "job", "relationship_status", "diet", "studies", "age", "name"}
)
FUNCTIONAL_PREFIXES = ("favorite_", "favourite_", "has_", "attribute_")
# Only what was said as true (or as untrue) competes; plans, questions, hypotheticals and hearsay do not.
COMPETING_MODALITIES = frozenset({Modality.ASSERTED, Modality.NEGATED})


ANY_VALUE = ""  # the value key of a fact with no object: as a denial, it denies whatever value holds


def is_functional(predicate: str) -> bool:
    return predicate in FUNCTIONAL_PREDICATES or predicate.startswith(FUNCTIONAL_PREFIXES)


def ends_any_partner(slot: str) -> str | None:
    """The slot whose denials end this partner slot's partner too, or None: a couple said as ended without a name
    ("We broke up", "I broke up with my boyfriend") sits in the nameless partner slot ``<subject>|partner|`` and
    ends whichever named partner held then (``resolve_slot``'s ``guests``)."""
    subject, kind, value = [*slot.split("|", 2), "", ""][:3]
    return f"{subject}|partner|" if kind == "partner" and value else None


def slot_of(kind: FactKind, predicate: str, modality: Modality, subject_key: str, object_key: str) -> str | None:
    """The slot a fact competes in, or None for facts that never supersede (events, plans, ...)."""
    if modality not in COMPETING_MODALITIES:
        return None
    if kind is FactKind.PREFERENCE:
        return f"{subject_key}|{predicate}|{object_key}"
    # a couple's relation, whatever it is called then ("my boyfriend Tom", later "my fiancé Tom", and "Tom and I
    # broke up", a denial of "partner" Tom), one slot per partner; living together, whatever it is called
    if kind is FactKind.RELATION and predicate in PARTNER_PREDICATES:
        return f"{subject_key}|partner|{object_key}"
    if kind is FactKind.RELATION and predicate in HOUSEMATE_WORDS:
        return f"{subject_key}|housemate|{object_key}"
    if kind in (FactKind.STATE, FactKind.ATTRIBUTE, FactKind.RELATION) and is_functional(predicate):
        return f"{subject_key}|{predicate}"
    if kind is FactKind.RELATION and object_key:
        # one relation to one person, whatever its word (``sodamem.roles``): "Finn is no longer my boss" ends "my
        # boss Finn", and "my manager Finn"; a role one has one holder of, one slot: the next holder ends the last
        role = role_of(predicate)
        return f"{subject_key}|relation:{role}" + ("" if role in ONE_HOLDER_ROLES else f"|{object_key}")
    return None


# session, turn and character of an ``order_key`` ("<starts>|<session>|<turn>|<char>|<predicate>|<value>")
_PLACE = re.compile(r"[^|]*\|(.*?\|\d{8}\|\d{8})\|")


@dataclass(frozen=True, slots=True)
class SlotFact:
    fact_id: int
    order_key: str  # time first, then content: see ``order_key``
    starts: str  # ISO time the fact starts holding (valid_from)
    value: str  # object key
    polarity: bool
    negated: bool = False  # modality "negated" ("I never lived in Leeds"): a denial, whatever its polarity
    said: str = ""  # ISO time it was said at (mentioned_at); "" as ``starts``, a fact said with no time of its own

    @property
    def denies(self) -> bool:
        return self.negated or not self.polarity

    @property
    def said_key(self) -> datetime:
        return instants.sort_key(self.said or self.starts)

    @property
    def undated(self) -> bool:
        """Said as holding when said ("I live in London"), with no time of its own ("I moved there in May")."""
        return self.said_key == instants.sort_key(self.starts)

    @property
    def place(self) -> tuple[datetime, str]:
        """Where in the dialogue it was said: its time, then its session, turn and character (``order_key``)."""
        where = _PLACE.match(self.order_key)
        return self.said_key, where[1] if where else ""


@dataclass(frozen=True, slots=True)
class SlotOutcome:
    fact_id: int
    status: FactStatus
    valid_to: str | None


@dataclass(frozen=True, slots=True)
class SlotLink:
    type: LinkType
    newer: int
    older: int


def resolve_slot(facts: list[SlotFact], guests: Sequence[SlotFact] = ()) -> tuple[list[SlotOutcome], list[SlotLink]]:
    """The slot's facts in time order. A fact that affirms a value ends the affirmation that held (SUPERSEDES, or
    UPDATES for the same value) and the denials of its own value (CONTRADICTS). A denial ends the affirmation of
    its value (CONTRADICTS) and an earlier denial of it (UPDATES); a denial of another value than the one that holds
    ("I used to live in Leeds" while living in London) ends nothing. What no later fact ended is active: at most one
    affirmation, and the denials still true. ``guests``, denials of another slot (``ends_any_partner``), end the
    affirmation that holds at their time (CONTRADICTS) and nothing else; they get no outcome here."""
    visiting = [g for g in guests if g.denies]
    guest_ids = {g.fact_id for g in visiting}
    # By instant first: the order key's time is text, which misorders times said with different offsets. Said at
    # one place, an affirmation before a denial: "My boyfriend Tom and I broke up" ends the boyfriend it names.
    every = [*facts, *visiting]
    ordered = sorted(every, key=_ordering(every))
    holding: SlotFact | None = None  # the affirmation that holds
    denied: dict[str, SlotFact] = {}  # value -> the denial of it that holds
    outcomes: list[SlotOutcome] = []
    links: list[SlotLink] = []

    def end(older: SlotFact, newer: SlotFact, kind: LinkType) -> None:
        # a change dated before the statement it ends (see ``_order_time``) leaves that statement an empty span
        ends = max(newer.starts, older.starts, key=instants.sort_key)
        outcomes.append(SlotOutcome(older.fact_id, FactStatus.SUPERSEDED, ends))
        links.append(SlotLink(kind, newer.fact_id, older.fact_id))

    for fact in ordered:
        if fact.fact_id in guest_ids:
            if holding is not None:
                end(holding, fact, LinkType.CONTRADICTS)
                holding = None
            continue
        if fact.denies:
            # a denial of no value ("I lost my job") ends whatever value holds
            if holding is not None and (fact.value == ANY_VALUE or same_value(fact.value, holding.value)):
                end(holding, fact, LinkType.CONTRADICTS)
                holding = None
            if fact.value in denied:
                end(denied[fact.value], fact, LinkType.UPDATES)
            denied[fact.value] = fact
            continue
        if holding is not None:
            end(holding, fact, LinkType.UPDATES if holding.value == fact.value else LinkType.SUPERSEDES)
        # a new value also ends "no job" ("I lost my job", then "I work at X"), and denials of itself
        for value in [v for v in denied if v == ANY_VALUE or same_value(v, fact.value)]:
            end(denied.pop(value), fact, LinkType.CONTRADICTS)
        holding = fact
    still = ([holding] if holding is not None else []) + list(denied.values())
    outcomes += [SlotOutcome(f.fact_id, FactStatus.ACTIVE, None) for f in still]
    return outcomes, links


def same_value(a: str, b: str) -> bool:
    """Whether two value keys name one thing: equal, or one the other's leading or trailing words ("I quit
    Fernhill" ends "I work at Fernhill Studio", "I quit De Linde" ends "Apotheek De Linde")."""
    if a == b or not a or not b:
        return a == b
    short, long = sorted((a, b), key=len)
    # trailing words only when they are two or more: "York" is not "New York"
    return long.startswith(short + " ") or (" " in short and long.endswith(" " + short))


# How far back a change said later may be dated and still end a plain statement said in between: "I live in London"
# on 3 March, then "I moved to Paris two weeks ago" on 10 March. The later word is the newer knowledge (the first was
# stale, or the dates are loose), so Paris holds. A change dated long before ("I moved to Bristol in 2010") is the
# story of an earlier time, and the plain statement, said since, still holds.
STALE_REACH = timedelta(days=62)


def _ordering(facts: list[SlotFact]) -> Callable[[SlotFact], tuple[object, ...]]:
    """The sort key of a slot's history: the time a fact takes its place (its start, or, for a change dated shortly
    before a plain statement said earlier in the dialogue, that statement's time: ``STALE_REACH``), a change moved
    after a plain statement right after that statement; then its own start, and where it was said."""
    plain = sorted(f.place for f in facts if f.undated)  # their times ascend with their places
    plain_times = [place[0] for place in plain]

    def key(fact: SlotFact) -> tuple[object, ...]:
        starts = instants.sort_key(fact.starts)
        said_before = bisect_right(plain, fact.place)  # the plain statements said up to this fact
        reach = starts + STALE_REACH if starts < datetime.max - STALE_REACH else datetime.max
        latest = min(said_before, bisect_right(plain_times, reach)) - 1
        raised = latest >= 0 and plain_times[latest] > starts
        # a moved change sorts right after the statement that moved it, before any said after that one
        at, after = (plain_times[latest], plain[latest]) if raised else (starts, fact.place)
        return at, after, raised, starts, fact.place, fact.denies, fact.order_key

    return key


def order_key(starts: str, session_id: str, turn_index: int, char_start: int, predicate: str, value: str) -> str:
    """Sortable and content-derived (no database ids), so every ingestion order sorts a slot the same way."""
    return f"{starts}|{session_id}|{turn_index:08d}|{char_start:08d}|{predicate}|{value}"
