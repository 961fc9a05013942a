"""Pastimes kept up, said as habits: "I play rugby", "I do yoga twice a week", "I go climbing every Thursday",
"I've played rugby for ten years", "I've been playing the piano since I was six", "I'm doing pilates these days".

Each is a state, ``practises``, that holds while nothing ends it; a start ("I started pottery") is an event of
``rules_events``. Only what holds now is read: not a past ("I played rugby at school"), a plan ("I'm playing
tennis tomorrow"), a wish, a denial or "used to".
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract.rules_clause import _Clause, _object
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_modality import _mood, _say
from sodamem.model import FactKind, Modality
from sodamem.pastimes import DETERMINERS, PASTIMES, is_pastime, leading_word, pastime_name

K, M = FactKind, Modality

PRACTISE = re.compile(
    r"(?:^|\s+)(?P<verb>play|plays|playing|played|do|does|doing|done|practi[sc]e|practi[sc]es|practi[sc]ing"
    r"|practi[sc]ed|go|goes)\s+(?=[a-z])",
    re.IGNORECASE,
)
_PRESENT = frozenset("play plays do does practise practice practises practices go goes".split())
# how the fact says each verb form: "user plays rugby", "user does yoga"
_SAID_AS = {
    form: said
    for said, forms in {
        ("plays", "play"): "play plays playing played",
        ("does", "do"): "do does doing done",
        ("practises", "practise"): "practise practice practises practices practising practicing practised practiced",
        ("goes", "go"): "go goes",
    }.items()
    for form in forms.split()
}
# how long it has gone on: "for ten years", "since I was six", "for a while now" (not "for charity": once)
_LASTING = re.compile(
    r"\bsince\b|\bfor\s+(?:[\w-]+\s+){0,2}?(?:years?|months?|weeks?|ages|decades?|a\s+while|a\s+long\s+time)\b",
    re.IGNORECASE,
)
# a job, a chore or a screen, not a pastime: "I do a lot of writing for work", "cooking for the kids", "painting and
# decorating", "football on the Xbox"
_NOT_FOR_FUN = re.compile(
    r"\b(?:for|at)\s+(?:work|a\s+living|my\s+job|the\s+kids|my\s+kids|the\s+family)\b|\band\s+decorating\b"
    r"|\bon\s+(?:the\s+|my\s+)?(?:xbox|playstation|ps\d|switch|pc|computer|phone|console|ipad|tablet)\b",
    re.IGNORECASE,
)
_A_SPAN = re.compile(r"(?:for|since|over)\s", re.IGNORECASE)  # how long, not when: "for ten years"
# a habit said of a time: "every Thursday", "on Saturdays", "twice a week" (not one day: "on Saturday against Leeds")
_HABIT = re.compile(
    r"\b(?:every|each|most|twice|once\s+a|usually|often|regularly|weekly|daily|weekends|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)\b",
    re.IGNORECASE,
)
# a progressive that holds now rather than planning ahead: "I'm doing pilates these days"
_THESE_DAYS = re.compile(r"\b(?:these\s+days|at\s+the\s+moment|nowadays|lately|currently)\b", re.IGNORECASE)
# a job: "I play drums in a band, it's my job"
_A_LIVING = re.compile(r"\b(?:it['’]?s|that['’]?s)\s+my\s+job\b|\bprofessionally\b|\bfor\s+a\s+living\b", re.I)
# a time gone by around it ("When I was young I play piano every day"), or an ending after it ("I've played football
# since I was five but my knee is wrecked so that's it")
_BACK_THEN = re.compile(
    r"\b(?:when\s+I\s+was|as\s+a\s+(?:kid|child|teen|teenager|student)|growing\s+up|back\s+then|years\s+ago)\b",
    re.IGNORECASE,
)
_BUT_OVER = re.compile(
    r"\bbut\b[^.!?]*\b(?:that['’]?s\s+it|no\s+more|not\s+any\s?more|gave\s+(?:it\s+)?up|quit|stopped|done)\b",
    re.IGNORECASE,
)


def practise(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"].lower()
    obj = _object(c, m.end(), roles=True)
    if not is_pastime(obj.text):
        return False
    head = leading_word(obj.text)  # "do yoga", "do a bit of boxing" (not "do like hiking", "do the cooking")
    if verb in ("go", "goes") and not (head.endswith("ing") and head in PASTIMES):
        return False  # "I go to yoga" is a going, read by the going rules
    if verb.startswith("do") and head not in PASTIMES and (head not in DETERMINERS or head == "the"):
        return False  # "I do like hiking", "I do the cooking" (a chore)
    aux = c.aux
    rest = c.text[m.end() :]
    if (
        _NOT_FOR_FUN.search(rest[: len(obj.text) + 40])
        or _A_LIVING.search(c.text)
        or _BACK_THEN.search(c.text)
        or _BUT_OVER.search(rest)
    ):
        return False  # a job or a chore, a time gone by, or over since
    said = c.p.piece.text
    perfect = rs.PERFECT.search(aux) is not None
    dated = any(m.end() <= start < obj.end and not _A_SPAN.match(said, start) for start, _, _ in c.p.times)
    if dated and not perfect and not _HABIT.search(rest):
        return False  # "I play football on Saturday against Leeds": a match that day
    if perfect:
        holds = verb not in _PRESENT and bool(_LASTING.search(rest))  # "I've played rugby for ten years"
    elif verb.endswith("ing"):
        holds = bool(rs.COPULA.search(aux)) and bool(_THESE_DAYS.search(rest))
    else:
        holds = verb in _PRESENT and not rs.COPULA.search(aux)  # the simple present: a habit
    if not holds:
        return False
    mood = _mood(c, rest, state=True)
    if mood.modality is not M.ASSERTED or not mood.polarity or mood.note:
        return False  # "I don't play rugby any more", "I used to play", "I might do yoga"
    pres, base = _SAID_AS[verb]
    name = pastime_name(obj.text)  # "the piano most evenings": the piano
    text = _say(c.subj.name, mood, pres, base, name)
    return _emit(c, K.STATE, "practises", name, obj.end, mood, text, roles=obj.roles)
