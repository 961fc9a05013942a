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
from sodamem.pastimes import DETERMINERS, PASTIMES, bare, is_pastime, pastime_name

K, M = FactKind, Modality

PRACTISE = re.compile(
    r"(?:^|\s+)(?P<verb>play|plays|playing|played|do|does|doing|done|practi[sc]e|practi[sc]es|practi[sc]ing"
    r"|practi[sc]ed|go|goes)\s+(?=[a-z])",
    re.IGNORECASE,
)
_PRESENT = frozenset("play plays do does practise practice practises practices go goes".split())
_SAID_AS = {"pla": ("plays", "play"), "do": ("does", "do"), "pra": ("practises", "practise"), "go": ("goes", "go")}
# how long it has gone on: "for ten years", "since I was six", "for a while now"
_LASTING = re.compile(r"\b(?:for|since)\b", re.IGNORECASE)
# a progressive that holds now rather than planning ahead: "I'm doing pilates these days"
_THESE_DAYS = re.compile(r"\b(?:these\s+days|at\s+the\s+moment|nowadays|lately|right\s+now|currently)\b", re.IGNORECASE)
# what may lead a pastime after "do": "do yoga", "do a bit of boxing", "do some climbing" (not "do like hiking")
_DONE_AS = re.compile(r"(?:(?:a\s+(?:bit|lot)\s+of|lots\s+of|some)\s+)?(?P<first>[\w-]+)", re.IGNORECASE)


def practise(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"].lower()
    obj = _object(c, m.end(), roles=True)
    if not is_pastime(obj.text):
        return False
    first = _DONE_AS.match(obj.text)
    head = bare(first["first"]) if first is not None else ""
    if verb in ("go", "goes") and not (head.endswith("ing") and head in PASTIMES):
        return False  # "I go to yoga" is a going, read by the going rules
    if verb.startswith("do") and head not in PASTIMES and (head not in DETERMINERS or head == "the"):
        return False  # "I do like hiking", "I do the cooking" (a chore)
    aux = c.aux
    rest = c.text[m.end() :]
    if rs.PERFECT.search(aux):
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
    pres, base = _SAID_AS[verb[:3] if verb.startswith(("pla", "pra")) else verb[:2]]
    name = pastime_name(obj.text)  # "the piano most evenings": the piano
    text = _say(c.subj.name, mood, pres, base, name)
    return _emit(c, K.STATE, "practises", name, obj.end, mood, text, roles=obj.roles)
