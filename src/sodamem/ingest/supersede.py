"""Supersession as a pure function over one slot's facts.

A slot is (user, subject entity, predicate) for functional predicates, and (user, subject, predicate, object)
for preferences. Sorting by a content-derived order key (time first) and recomputing the whole slot each time
makes the outcome independent of ingestion order: the newest fact is active, each older one is superseded at
the start of its successor and linked from it; a denial of a value that does not hold ends nothing (``resolve_slot``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from sodamem import instants
from sodamem.model import FactKind, FactStatus, LinkType, Modality

FUNCTIONAL_PREDICATES = frozenset(
    {"lives_in", "works_at", "job", "relationship_status", "diet", "studies", "age", "name"}
)
FUNCTIONAL_PREFIXES = ("favorite_", "favourite_", "has_", "attribute_")
# Only what was said as true (or as untrue) competes; plans, questions, hypotheticals and hearsay do not.
COMPETING_MODALITIES = frozenset({Modality.ASSERTED, Modality.NEGATED})


def is_functional(predicate: str) -> bool:
    return predicate in FUNCTIONAL_PREDICATES or predicate.startswith(FUNCTIONAL_PREFIXES)


def slot_of(kind: FactKind, predicate: str, modality: Modality, subject_key: str, object_key: str) -> str | None:
    """The slot a fact competes in, or None for facts that never supersede (events, plans, ...)."""
    if modality not in COMPETING_MODALITIES:
        return None
    if kind is FactKind.PREFERENCE:
        return f"{subject_key}|{predicate}|{object_key}"
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
    """The slot's facts in time order form a chain: each is replaced by the next, and the last is active. One fact
    stays out of the chain: a denial of another value than the one that holds ("I used to live in Leeds" while
    living in London). It is true, it ends nothing, and it stays active until the slot takes its value again."""
    # By instant first: the order key's time is text, which misorders times said with different offsets.
    ordered = sorted(facts, key=lambda f: (instants.sort_key(f.starts), f.order_key))
    chain: list[SlotFact] = []
    aside: list[SlotFact] = []  # denials of values that did not hold, still true
    outcomes: list[SlotOutcome] = []
    links: list[SlotLink] = []
    for fact in ordered:
        head = chain[-1] if chain else None
        if fact.denies and head is not None and not head.denies and head.value != fact.value:
            aside.append(fact)
            continue
        if not fact.denies:  # the value holds again: its earlier denials are over
            for denial in [d for d in aside if d.value == fact.value]:
                aside.remove(denial)
                outcomes.append(SlotOutcome(denial.fact_id, FactStatus.SUPERSEDED, fact.starts))
                links.append(SlotLink(LinkType.CONTRADICTS, fact.fact_id, denial.fact_id))
        chain.append(fact)
    for older, newer in itertools.pairwise(chain):
        outcomes.append(SlotOutcome(older.fact_id, FactStatus.SUPERSEDED, newer.starts))
        if older.denies != newer.denies:
            kind = LinkType.CONTRADICTS
        elif older.value != newer.value:
            kind = LinkType.SUPERSEDES
        else:
            kind = LinkType.UPDATES
        links.append(SlotLink(kind, newer.fact_id, older.fact_id))
    if chain:
        outcomes.append(SlotOutcome(chain[-1].fact_id, FactStatus.ACTIVE, None))
    outcomes += [SlotOutcome(denial.fact_id, FactStatus.ACTIVE, None) for denial in aside]
    return outcomes, links


def order_key(starts: str, session_id: str, turn_index: int, char_start: int, predicate: str, value: str) -> str:
    """Sortable and content-derived (no database ids), so every ingestion order sorts a slot the same way."""
    return f"{starts}|{session_id}|{turn_index:08d}|{char_start:08d}|{predicate}|{value}"
