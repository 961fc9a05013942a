"""The speaker moving in with people: "I moved in with Ingrid last week", "moving in with Ingrid and Pavel on
saturday!", "I'm moving in with my boyfriend Tom next month". Each person named lives with the speaker, from then
(a plan while the day is to come; the housemate reader takes a plan whose day has come as said), as "Sam moved in"
says of one who moves in with the speaker (``rules_taking_up.moving_in``). Not read: someone else moving in ("Lucy
moved in with her boyfriend"), a question, a wish or hearsay before it ("I might move in with Tom", "Sarah says ..."),
a stay ("I'm moving in with my parents for a week" is read all the same: a home for now).
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_past_relations import NOT_SAID_AS_SO
from sodamem.model import FactKind, Modality

_WHO = rf"(?:(?:[Mm]y|[Oo]ur)\s+{rv.REL_MOD}(?:{rv.REL_ONE})\s+)?{rv.NAME}"
_MOVING_IN_WITH = re.compile(
    r"(?:^|(?<=[.!?;,:])\s*|\b(?i:so|and|but|now|finally|officially|update|news|omg)\s*[:,!]?\s+"
    r"|\bI(?:['’]m|\s+am|['’]ve|\s+have|['’]ll|\s+will|\s+just|\s+finally|\s+officially)*\s+)"
    r"(?:(?:just|finally|officially)\s+)?(?P<verb>moved|moving|move)\s+in\s+with\s+"
    rf"(?P<names>{_WHO}(?:\s*,\s*{_WHO})*(?:,?\s+and\s+{_WHO})?)(?![\w'’])"
)
_ONE = re.compile(rf"(?:(?:[Mm]y|[Oo]ur)\s+{rv.REL_MOD}(?:{rv.REL_ONE})\s+)?(?P<name>{rv.NAME})(?![\w'’])")
_UNDONE = re.compile(r"[^.!?]*\b(?:would|could|might|moved\s+out|move\s+out)\b", re.IGNORECASE)
_NOT_YET = re.compile(r"\b(?:might|may|could|would|should|want|wants|thinking|considering|if|maybe)\b", re.IGNORECASE)


def moving_in_with(p: _Piece) -> None:
    """Each person the speaker moves in with in ``p`` (see the module docstring)."""
    text = p.piece.text
    if p.question:
        return
    for m in _MOVING_IN_WITH.finditer(text):
        before, after = text[: m.start("verb")], text[m.end() :]
        if NOT_SAID_AS_SO.search(before) or _NOT_YET.search(before) or _UNDONE.match(after):
            continue  # "... but moving in with Sarah would be cheaper", "I moved in with Jake but moved out in 2021"
        planned = m["verb"] != "moved"
        mood = _Mood(Modality.PLANNED if planned else Modality.ASSERTED, True)
        start = m.start("verb")
        for one in _ONE.finditer(m["names"]):
            name = one["name"]
            if not _is_name(name):
                continue
            c = _piece_clause(p, start, m.end(), p.speaker)
            said = f"{name} lives with {p.speaker}" + (" (planned)" if planned else "")
            _emit(c, FactKind.RELATION, "housemate", name, m.end(), mood, said, subject=p.speaker)
