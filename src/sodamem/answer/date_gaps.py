"""Questions about the span between two of the asker's dated events ("How many days after arriving in Stavanger did I
start at Havbrink?"): each event is asked as a when-question of its own, and the answer is the difference, in the
unit asked, with both days ("4 days (27 June 2026 to 1 July 2026)"). Pure functions; the offline reader dates the two
events.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

GAP = re.compile(
    r"^\s*how\s+(?:many\s+(?P<unit>days|weeks|months|years)|long)\s+(?P<side>after|before)\s+(?P<first>.+?)\s+"
    r"(?P<aux>did|do|had|have|was|were)\s+(?P<who>I|we)\s+(?P<second>.+?)\s*\?*\s*$",
    re.IGNORECASE,
)
# the first event named by a noun ("the wedding", "my interview", "Vlad's wedding"), not by a verb ("moving to X")
_NOUN_PHRASE = re.compile(r"(?:the|my|our|his|her|their|[A-Z][\w-]*['’]s)\s", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Gap:
    """The two when-questions a gap question is made of, and the unit it asks in (``side``: "after": the second
    event is the later one)."""

    unit: str
    side: str
    first: str  # "When did I arriving in Stavanger?": the reader matches words by their stems
    second: str


def asks_a_gap(question: str) -> Gap | None:
    m = GAP.match(question)
    if m is None:
        return None
    who, first = m["who"], m["first"]
    first_question = f"When was {first}?" if _NOUN_PHRASE.match(first) else f"When did {who} {first}?"
    return Gap((m["unit"] or "days").lower(), m["side"].lower(), first_question, f"When did {who} {m['second']}?")


def gap_text(gap: Gap, first: datetime, second: datetime) -> str | None:
    """The span from ``first`` to ``second`` in ``gap``'s unit, said with both days; None when the days disagree
    with the question (the "after" event came first)."""
    earlier, later = (first, second) if gap.side == "after" else (second, first)
    days = (later.date() - earlier.date()).days
    if days < 0:
        return None
    if gap.unit == "days":
        amount = days
    elif gap.unit == "weeks":
        amount = round(days / 7)
    elif gap.unit == "months":
        amount = (later.year - earlier.year) * 12 + later.month - earlier.month - (later.day < earlier.day)
    else:
        amount = later.year - earlier.year - ((later.month, later.day) < (earlier.month, earlier.day))
    unit = gap.unit if amount != 1 else gap.unit[:-1]
    return f"{amount} {unit} ({_day(earlier)} to {_day(later)})"


def _day(when: datetime) -> str:
    return f"{when.day} {when:%B %Y}"
