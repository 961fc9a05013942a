"""Modality and polarity of a clause (from its context and aux chain), and the short normalised statement that says
a fact with them ("Maya likes spicy food", "Maya plans to visit Lisbon", "Maya used to like X").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _Clause, _Mood, _Piece
from sodamem.model import Modality

M = Modality


def _mood(c: _Clause, tail: str = "", *, ing: bool = False, preference: bool = False, state: bool = False) -> _Mood:
    """Modality and polarity from the context and the aux chain (``ing``: a progressive that means a plan)."""
    aux = c.aux
    neg = bool(rs.NEG.search(aux))
    if c.p.question:
        modality = M.QUESTION
    elif c.reported:
        modality = M.REPORTED
    elif c.conditional or rs.HYPOTHETICAL.search(aux) or re.search(r"\b(?:wanted|tried|try|trying)\s+to\b", aux):
        modality = M.HYPOTHETICAL
    elif (
        rs.PLAN.search(aux)
        or (rs.OBLIGATION.search(aux) and not preference and not (state and "supposed to" in aux))
        or (ing and rs.COPULA.search(aux) and not rs.BEEN.search(aux))
    ):
        modality = M.PLANNED
    else:
        modality = M.ASSERTED
    if preference and modality is M.PLANNED and re.search(r"\balways\b", aux):
        modality = M.ASSERTED  # "I will always love reading"
    if modality in (M.ASSERTED, M.QUESTION, M.REPORTED):
        if rs.USED_TO.search(aux):
            return _Mood(modality, False, "used_to")
        if rs.NO_LONGER.search(aux) or (neg and rs.ANYMORE.search(tail)):
            return _Mood(modality, False, "no_longer")
    if neg:
        if preference or modality is not M.ASSERTED:
            return _Mood(modality, False)
        return _Mood(M.NEGATED, True)
    if state and modality is M.ASSERTED and re.search(r"\b(?:was|were)\b", aux) and not rs.PERFECT.search(aux):
        return _Mood(modality, False, "past")
    return _Mood(modality, True)


def _piece_mood(p: _Piece) -> _Mood:
    return _Mood(M.QUESTION if p.question else M.ASSERTED, True)


_PAST = {"works as": "worked as", "works at": "worked at", "studies": "studied", "studies at": "studied at"}


def _say(subject: str, mood: _Mood, pres: str, base: str, obj: str, *, negative: str = "") -> str:
    """A short normalised statement: "Maya likes spicy food", "Maya plans to visit Lisbon", ..."""
    be = base == "be"
    pol, note = mood.polarity, mood.note
    not_ = "" if pol else " not"
    if mood.modality is M.PLANNED:
        verb = f"plans to {base}" if pol else f"does not plan to {base}"
    elif mood.modality is M.HYPOTHETICAL:
        verb = f"would{not_} {base}"
    elif mood.modality is M.NEGATED:
        verb = "is not" if be else f"{'did' if pres.endswith('ed') or pres in rv.IRREGULAR_PAST else 'does'} not {base}"
    elif not pol and note == "used_to":
        verb = f"used to {base}"
    elif not pol and note == "no_longer":
        verb = "is no longer" if be else f"no longer {pres}"
    elif not pol and note == "past":
        verb = "was" if be else _PAST.get(pres, pres)
    elif not pol:
        verb = negative or ("is not" if be else f"does not {base}")
    else:
        verb = pres
    sentence = " ".join(w for w in (subject, verb, obj) if w)
    if mood.modality is M.QUESTION:
        return sentence + "?"
    if mood.modality is M.REPORTED:
        return sentence + " (reported)"
    return sentence
