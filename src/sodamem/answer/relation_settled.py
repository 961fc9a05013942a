"""Whether the relation the stored facts name for "Who is Finn?" still stands, so the LLM loop may take the offline
reader's answer ("user's boss") without asking the model: the facts keep no "former", "late" or later ending that
the rules did not read as a denial ("I quit, Finn is no longer my boss"; "Sarah and I are divorced now"), so any
sign of one leaves the question to the model, which reads the turns.
"""

from __future__ import annotations

import re
from datetime import datetime

from sodamem import instants
from sodamem.answer.types import Answer
from sodamem.memory import Memory

# "my old boss Finn", "my late husband", "my ex Sarah": said as past when it was named
_PAST_RELATION = re.compile(r"\b(?:former|old|ex|late|previous|then|one-time|erstwhile)\b", re.IGNORECASE)
# said of the person since: the relation may have ended
_ENDING = re.compile(
    r"\b(?:no\s+longer|any\s?more|not\s+(?:my|our|her|his)|ex|former|divorc\w*|split|broke\s+up|separated"
    r"|passed\s+away|died|funeral|left|quit|retired|fired|laid\s+off|moved\s+out|fell\s+out|until)\b",
    re.IGNORECASE,
)

_COUPLE = re.compile(r"\b(?:boyfriend|girlfriend|partner|husband|wife|spouse|fianc[eé]e?|dating)\b", re.IGNORECASE)
_COUPLE_ENDED = re.compile(
    r"\b(?:we|i)\s+(?:(?:have|'ve|had)\s+)?(?:broke(?:n)?\s+up|split\s+up|(?:got\s+)?divorced|called\s+it\s+(?:off|quits)"
    r"|separated(?!\s+(?:the|my|our|it|them|all)\b))\b|\bwe['’]re\s+(?:over|separated|divorced)\s*(?:[.,!;]|$)"
    r"|\b(?:my|our|the)\s+break[\s-]?up\b",
    re.IGNORECASE,
)


def relation_settled(memory: Memory, answer: Answer, name: str, now: datetime | None, user: str | None) -> bool:
    """Whether ``answer`` (the offline reader's relation reading for "Who is <name>?") names one relation, said as
    holding where it was named (no ending in that turn: "My husband Finn and I divorced"), and no turn said after it
    by ``now``, in its session or a later one, speaks of ``name`` with an ending word."""
    if ", " in answer.answer or not answer.citations:
        return False  # several relations: one person, or two of one name
    if any(_PAST_RELATION.search(c.quote) for c in answer.citations):
        return False
    mentioned = re.compile(rf"\b{re.escape(name.split()[0])}\b", re.IGNORECASE)  # "Finn Jones" is "Finn" too
    named = [memory.turn(c.turn_id, session_id=c.session_id, user=user) for c in answer.citations]
    if any(_ENDING.search(turn.text) for turn in named):
        return False
    # after where it was named: a later time, or later in the same session (whose turns may share one time)
    last = max((instants.sort_key(c.timestamp), c.session_id, c.turn_index) for c in answer.citations)
    couple = _COUPLE.search(answer.answer) is not None  # "We broke up last night" ends a partner, named or not
    query = f"{name} no longer anymore left ex" + (" broke up split divorced separated" if couple else "")
    for hit in memory.search(query, k=20, user=user, now=now):
        said = instants.sort_key(hit.timestamp)
        after = said > last[0] or (hit.session_id == last[1] and hit.turn_index > last[2])
        by_now = now is None or instants.at_or_before(hit.timestamp, now)
        if not (after and by_now):
            continue
        if mentioned.search(hit.turn_text) and _ENDING.search(hit.turn_text):
            return False
        if couple and _COUPLE_ENDED.search(hit.turn_text):
            return False
    return True
