"""Supersession as a pure function over one slot's facts.

A slot is (user, subject entity, predicate) for functional predicates, and (user, subject, predicate, object)
for preferences. Sorting by a content-derived order key (time first) and recomputing the whole slot each time
makes the outcome independent of ingestion order: the newest fact is active, each older one is superseded at
the start of its successor and linked from it; a denial of a value that does not hold ends nothing, and a denial
of no value ("I lost my job") ends any (``resolve_slot``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sodamem import instants
from sodamem.model import FactKind, FactStatus, LinkType, Modality

FUNCTIONAL_PREDICATES = frozenset(
    {"lives_in", "works_at", "job", "relationship_status", "diet", "studies", "age", "name"}
)
FUNCTIONAL_PREFIXES = ("favorite_", "favourite_", "has_", "attribute_")
# Only what was said as true (or as untrue) competes; plans, questions, hypotheticals and hearsay do not.
COMPETING_MODALITIES = frozenset({Modality.ASSERTED, Modality.NEGATED})


ANY_VALUE = ""  # the value key of a fact with no object: as a denial, it denies whatever value holds


def is_functional(predicate: str) -> bool:
    return predicate in FUNCTIONAL_PREDICATES or predicate.startswith(FUNCTIONAL_PREFIXES)


# A couple's relation, whatever it is called then: "my boyfriend Tom", later "my fiancé Tom", and "Tom and I broke up"
# (a denial of "partner" Tom) are one slot per partner.
PARTNER_PREDICATES = frozenset(
    {
        "boyfriend",
        "girlfriend",
        "partner",
        "fiance",
        "fiancé",
        "fiancee",
        "fiancée",
        "husband",
        "wife",
        "spouse",
        "dating",
    }
)


def slot_of(kind: FactKind, predicate: str, modality: Modality, subject_key: str, object_key: str) -> str | None:
    """The slot a fact competes in, or None for facts that never supersede (events, plans, ...)."""
    if modality not in COMPETING_MODALITIES:
        return None
    if kind is FactKind.PREFERENCE:
        return f"{subject_key}|{predicate}|{object_key}"
    if kind is FactKind.RELATION and predicate in PARTNER_PREDICATES:
        return f"{subject_key}|partner|{object_key}"
    if kind in (FactKind.STATE, FactKind.ATTRIBUTE, FactKind.RELATION) and is_functional(predicate):
        return f"{subject_key}|{predicate}"
    return None


@dataclass(frozen=True, slots=True)
class SlotFact:
    fact_id: int
    order_key: str  # time first, then content: see ``order_key``
    starts: str  # ISO time the fact starts holding (valid_from)
    value: str  # object key
    polarity: bool
    negated: bool = False  # modality "negated" ("I never lived in Leeds"): a denial, whatever its polarity

    @property
    def denies(self) -> bool:
        return self.negated or not self.polarity


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


def resolve_slot(facts: list[SlotFact]) -> tuple[list[SlotOutcome], list[SlotLink]]:
    """The slot's facts in time order. A fact that affirms a value ends the affirmation that held (SUPERSEDES, or
    UPDATES for the same value) and the denials of its own value (CONTRADICTS). A denial ends the affirmation of
    its value (CONTRADICTS) and an earlier denial of it (UPDATES); a denial of another value than the one that holds
    ("I used to live in Leeds" while living in London) ends nothing. What no later fact ended is active: at most one
    affirmation, and the denials still true."""
    # By instant first: the order key's time is text, which misorders times said with different offsets. Said at
    # one place, an affirmation before a denial: "My boyfriend Tom and I broke up" ends the boyfriend it names.
    ordered = sorted(
        facts, key=lambda f: (instants.sort_key(f.starts), f.order_key.rsplit("|", 2)[0], f.denies, f.order_key)
    )
    holding: SlotFact | None = None  # the affirmation that holds
    denied: dict[str, SlotFact] = {}  # value -> the denial of it that holds
    outcomes: list[SlotOutcome] = []
    links: list[SlotLink] = []

    def end(older: SlotFact, newer: SlotFact, kind: LinkType) -> None:
        outcomes.append(SlotOutcome(older.fact_id, FactStatus.SUPERSEDED, newer.starts))
        links.append(SlotLink(kind, newer.fact_id, older.fact_id))

    for fact in ordered:
        if fact.denies:
            # a denial of no value ("I lost my job") ends whatever value holds
            if holding is not None and fact.value in (holding.value, ANY_VALUE):
                end(holding, fact, LinkType.CONTRADICTS)
                holding = None
            if fact.value in denied:
                end(denied[fact.value], fact, LinkType.UPDATES)
            denied[fact.value] = fact
            continue
        if holding is not None:
            end(holding, fact, LinkType.UPDATES if holding.value == fact.value else LinkType.SUPERSEDES)
        for value in (fact.value, ANY_VALUE):  # a new value also ends "no job" ("I lost my job", then "I work at X")
            if value in denied:
                end(denied.pop(value), fact, LinkType.CONTRADICTS)
        holding = fact
    still = ([holding] if holding is not None else []) + list(denied.values())
    outcomes += [SlotOutcome(f.fact_id, FactStatus.ACTIVE, None) for f in still]
    return outcomes, links


def order_key(starts: str, session_id: str, turn_index: int, char_start: int, predicate: str, value: str) -> str:
    """Sortable and content-derived (no database ids), so every ingestion order sorts a slot the same way."""
    return f"{starts}|{session_id}|{turn_index:08d}|{char_start:08d}|{predicate}|{value}"
