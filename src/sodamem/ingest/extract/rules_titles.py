"""Job titles said with a start: "Starting at Talkdesk on June 1st as a design lead", "I'm starting at Monzo as a
product manager next month", "I start there as head of maths on April 20th", "I started at Google as a software
engineer in March".

The title takes the start's mood: a start to come is a planned ``job``, dated, which ``answer/due_plans.py`` reads as
the job once its day has come; a start said as done is the job from then. A title needs a job's word last ("as a
design lead", "as head of maths"; not "as a volunteer", "as a favour", "as planned").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _Clause, _Mood
from sodamem.ingest.extract.rules_modality import _mood
from sodamem.ingest.extract.rules_states import _through_time, emit_job
from sodamem.model import FactKind, Modality

K, M = FactKind, Modality
TITLE_WORDS = (rv.JOB_HEADS | frozenset("lead partner associate".split())) - frozenset(
    "volunteer blogger gamer athlete student member captain dj".split()
)
# what never continues "head of <field>": a preposition, a time word, a conjunction
_NOT_A_FIELD = r"(?:on|in|at|from|for|to|with|by|next|this|starting|and|but|so|after|before|when|once)\b"
_AS_TITLE = re.compile(
    r"\s+as\s+(?:(?:an?|the|their|our|its)\s+)?(?P<job>head\s+of\s+(?!" + _NOT_A_FIELD + r")[a-z][\w-]*"
    r"(?:\s+(?!" + _NOT_A_FIELD + r")[a-z][\w-]*)?"
    rf"|(?:[a-z][\w-]*\s+){{0,3}}?(?:{rv.alt(TITLE_WORDS)}))(?![\w'’-])",
    re.IGNORECASE,
)
# "I start there as head of maths", "I'm starting as a team lead next month": a start whose employer is said elsewhere
START_AS = re.compile(
    r"(?:^|\s+)(?P<verb>start|starts|starting)\s+(?:(?:there|work|my\s+new\s+job|the\s+new\s+job)\s+)?(?=as\s)"
)


# a start that takes up no job: a gig, a season, a one-off; "Starting as a manager was hard" (a start as subject)
_NO_JOB_TAKEN = re.compile(
    r"\b(?:one[\s-]off|for\s+the\s+(?:summer|season|holidays?)|temp(?:orary|orarily)?|"
    r"cover(?:ing)?\s+for|for\s+(?:a|one|the)\s+(?:night|day|week|weekend|match|game))\b",
    re.IGNORECASE,
)


def title_after(c: _Clause, at: int) -> tuple[str, int] | None:
    """The job title said as "as a <title>" at ``at`` or after a time said there ("on June 1st as a design lead"),
    and the end of the title and of a time said right after it."""
    m = _AS_TITLE.match(c.text, at) or _AS_TITLE.match(c.text, _through_time(c, at))
    if m is None or _NO_JOB_TAKEN.search(c.text) or re.match(r"\s+(?:was|is|has|had|will)\b", c.text[m.end() :]):
        return None
    return " ".join(m["job"].split()), _through_time(c, m.end())


def start_as(c: _Clause, m: re.Match[str]) -> bool:
    """ "I start there as head of maths on April 20th": a planned job (a start said in the present is to come)."""
    found = title_after(c, m.end() - 1)
    if found is None:
        return False
    mood = _mood(c, c.text[found[1] :], ing=m["verb"] == "starting")
    if mood.modality is M.ASSERTED:
        mood = _Mood(M.PLANNED, mood.polarity)
    if mood.modality is not M.PLANNED or not mood.polarity:
        return False
    return emit_job(c, found[0], found[1], mood)
