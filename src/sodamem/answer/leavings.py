"""People said to leave a post by name alone ("Dr Ferreira retired", "so Delphine's last day was Friday"): the
rules store an event (``roles.LEFT_POST``) with no post, since which post that person held was said in another
message. A role held at work or by those one goes to (``roles.HANDED_ON_ROLES``: a boss, a dentist, a coach) ends
with its holder's leaving said after it; a partner, a relative or a friend does not.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sodamem import instants
from sodamem.ingest.entities import entity_key
from sodamem.model import FactKind
from sodamem.records import FactRecord
from sodamem.roles import HANDED_ON_ROLES, LEFT_POST, role_of


def leavings(facts: Iterable[FactRecord]) -> list[FactRecord]:
    """The leavings among ``facts``."""
    return [f for f in facts if f.kind == FactKind.EVENT and f.predicate == LEFT_POST and f.affirms and f.sources]


def left_since(held: FactRecord, leaving: Iterable[FactRecord], now: datetime | None = None) -> list[FactRecord]:
    """Those of ``leaving`` that end ``held`` (a relation naming its holder): the holder's leaving said after it
    (by ``now`` where given), for a handed-on role only."""
    if held.kind != FactKind.RELATION or not held.affirms or role_of(held.predicate) not in HANDED_ON_ROLES:
        return []
    key = _person(held.object or "")
    return [
        f
        for f in leaving
        if _person(f.subject) == key
        and instants.sort_key(f.mentioned_at) > instants.sort_key(held.mentioned_at)
        and (now is None or instants.at_or_before(f.mentioned_at, now))
    ]


def _person(name: str) -> str:
    """A name's key, a title's full stop or none alike: "Dr Ferreira" is "Dr. Ferreira"."""
    return entity_key(name).replace(".", "")
