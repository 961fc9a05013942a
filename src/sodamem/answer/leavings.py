"""People said to leave a post by name alone ("Dr Ferreira retired", "so Delphine's last day was Friday"): the
rules store an event (``roles.LEFT_POST``) with no post, since which post that person held was said in another
message. A role held at work or by those one goes to (``roles.HANDED_ON_ROLES``: a boss, a dentist, a coach) ends
with its holder's leaving said after it; a partner, a relative or a friend does not.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from sodamem import instants
from sodamem.ingest.entities import one_person
from sodamem.model import FactKind
from sodamem.records import FactRecord
from sodamem.roles import HANDED_ON_ROLES, LEFT_POST, ONE_HOLDER_ROLES, PROMOTED_OUT, role_of

# a leaving said to come with no day ("Keanu told me he's leaving the company"): taken to have come after a notice
_NOTICE = timedelta(days=30)


def people_named(facts: Iterable[FactRecord]) -> list[str]:
    """The people ``facts``' relations name: those a given name alone might be (``left_since``'s ``known``)."""
    return [f.object for f in facts if f.kind == FactKind.RELATION and f.object]


def leavings(facts: Iterable[FactRecord], now: datetime | None = None) -> list[FactRecord]:
    """The leavings among ``facts``: those said as done, and, by ``now``, those to come whose day has come (the day
    said, else a notice's length after it was said)."""
    said = [f for f in facts if f.predicate in (LEFT_POST, PROMOTED_OUT) and f.polarity and f.sources]
    done = [f for f in said if f.kind == FactKind.EVENT and f.modality == "asserted"]
    if now is None:
        return done
    due = [f for f in said if f.kind == FactKind.PLAN and instants.at_or_before(_day(f), now)]
    return [*done, *due]


def _day(plan: FactRecord) -> str:
    if plan.occurred_start is not None:
        return plan.occurred_start
    return (datetime.fromisoformat(plan.mentioned_at) + _NOTICE).isoformat()


def left_since(
    held: FactRecord, leaving: Iterable[FactRecord], now: datetime | None = None, known: Iterable[str] = ()
) -> list[FactRecord]:
    """Those of ``leaving`` that end ``held`` (a relation naming its holder): the holder's leaving said after it
    (by ``now`` where given), for a handed-on role only (a promotion: a role one has one holder of only). A given
    name alone is the holder's full name only where no other of the ``known`` names begins with it ("Tom quit" is
    not "my boss Tom Harris" when "my nephew Tom Reed" is known too)."""
    role = role_of(held.predicate)
    if held.kind != FactKind.RELATION or not held.affirms or role not in HANDED_ON_ROLES:
        return []
    holder = held.object or ""
    return [
        f
        for f in leaving
        if (f.predicate != PROMOTED_OUT or role in ONE_HOLDER_ROLES)
        and one_person(f.subject, holder, known)
        and instants.sort_key(f.mentioned_at) > instants.sort_key(held.mentioned_at)
        and (now is None or instants.at_or_before(f.mentioned_at, now))
    ]
