"""Reading "before <X>" / "after <X>" in a state question, pure over facts: "Where did I live before York?" names a
value of the asked slot's history, so the answer is the value said just before it; "Where did I live before I
started at Aldi?" names a value of another slot (an employer), so the answer is the home that held when that one
began.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sodamem.answer.state_questions import ANCHOR, names_said, same_value_said, value
from sodamem.records import FactRecord


@dataclass(frozen=True, slots=True)
class Anchored:
    side: str  # "before", "after", "prior to"
    anchor: FactRecord  # the fact naming the value the question is anchored on
    other: FactRecord | None  # the value asked, or None where the history holds none


def anchored(question: str, chain: list[FactRecord], elsewhere: Iterable[FactRecord] = ()) -> Anchored | None:
    """For "before <value>" / "after <value>": the other value of ``chain`` (the asked slot's history, oldest first)
    said just before (after) the value named, where ``chain`` names it; else, for "before" a value of another slot
    (``elsewhere``: the asker's other states), the value of ``chain`` that held when that one began. None where the
    question names neither."""
    m = ANCHOR.search(question)
    if m is None:
        return None
    side = m["side"].lower()
    said = [f for f in chain if f.modality == "asserted" and f.object]
    named = [i for i, f in enumerate(said) if names_said(m["what"], value(f))]
    if named:
        at = named[0] if side == "after" else named[-1]
        anchor = said[at]
        others = said[at + 1 :] if side == "after" else said[:at][::-1]
        other = next((f for f in others if not same_value_said(value(f), value(anchor))), None)
        return Anchored(side, anchor, other)
    if side == "after":
        return None  # "after I started at Aldi" may be any time since: the sentences say it better
    began = [f for f in elsewhere if f.modality == "asserted" and f.object and _names_whole(m["what"], value(f))]
    if not began:
        return None
    anchor = min(began, key=lambda f: f.holds_from)
    held = [f for f in said if f.holds_from < anchor.holds_from]
    return Anchored(side, anchor, max(held, key=lambda f: f.holds_from)) if held else None


def _names_whole(words: str, said: str) -> bool:
    """``words`` start with ``said`` as a whole name: "Pizza Hut" names no "pizza"."""
    return names_said(words, said) and not re.match(rf"(?i:(?:the\s+)?{re.escape(said)})\s+[A-Z]", words)
