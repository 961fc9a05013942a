"""Rules after a subject for preferences: likes and dislikes ("I love X", "I can't stand X"), "a fan of" / "into",
allergies,
cutting down on or giving up something; a past like ("I loved the concert") is an opinion.
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _Clause, _Mood, _object
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_modality import _mood, _say
from sodamem.ingest.extract.rules_plans import _plan
from sodamem.model import FactKind, Modality

K, M = FactKind, Modality


def _cut_down(c: _Clause, m: re.Match[str]) -> bool:
    return _preference(c, m.end(), False, "is cutting down on" if "cut" in m.group() else "has gone off")


def _allergic(c: _Clause, m: re.Match[str]) -> bool:
    """ "I'm allergic to peanuts and shellfish": each allergy, an attribute that holds (several may)."""
    if not rs.COPULA.search(c.aux):
        return False
    obj = _object(c, m.end(), allow_list=True)
    mood = _mood(c, c.text[m.end() :], state=True)
    done = False
    for item in rs.split_list(obj.text):
        if not rs.object_rejected(item):
            say = _say(c.subj.name, mood, "is allergic to", "be allergic to", item)
            done = _emit(c, K.ATTRIBUTE, "allergic_to", item, obj.end, mood, say) or done
    return done


def _fan(c: _Clause, m: re.Match[str]) -> bool:
    if not rs.COPULA.search(c.aux):
        return False
    return _preference(c, m.end(), True)


def _like(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"]
    if verb == "stand":
        if not re.search(r"\b(?:can't|cannot|cant|couldn't|couldnt)\b", c.aux):
            return False
        clause = _Clause(c.p, c.subj, re.sub(r"\b(?:can't|cannot|cant|couldn't|couldnt)\b", "", c.aux), c.text,
                         c.reported, c.conditional)  # fmt: skip
        return _preference(clause, m.end(), False, "cannot stand")
    if verb.endswith("ing") and not rs.COPULA.search(c.aux):
        return False
    if not verb.endswith("ing") and re.search(r"(?:'m|'re|'s|\b(?:am|is|are|was|were|be))$", c.aux):
        return False  # "we're like a family"
    positive = verb not in rv.NEGATIVE_LIKES
    wish = (
        re.search(r"['’]d\b|\bwould\b", c.aux) and verb in ("love", "like") and re.match(r"\s+to\s", c.text[m.end() :])
    )
    if wish:
        return _plan(c, m.end() + c.text[m.end() :].index("to") + 2, predicate="wants_to")
    past = verb.endswith("ed") and not rs.PERFECT.search(c.aux) and not rs.USED_TO.search(c.aux)
    return _preference(
        c, m.end(), positive, "" if positive else "dislikes", opinion=past, prefer=verb.startswith("pref")
    )


def _preference(
    c: _Clause, start: int, positive: bool, negative: str = "", *, opinion: bool = False, prefer: bool = False
) -> bool:
    obj = _object(c, start, allow_list=True)
    text = obj.text
    if prefer:
        text = rp.PREFER_CUT.split(text)[0]
    if opinion and rs.object_rejected(text):
        return False
    mood = _mood(c, c.text[start:], preference=True)
    if not positive:
        mood = _Mood(mood.modality, not mood.polarity, mood.note)
    kind, predicate, pres = (K.OPINION, "enjoyed", "enjoyed") if opinion else (K.PREFERENCE, "likes", "likes")
    done = False
    for item in rs.split_list(text):
        core = item[3:] if item.startswith("to ") else item
        if rs.object_rejected(core):
            continue
        if not mood.polarity and negative and mood.modality is M.ASSERTED and not mood.note:
            say = f"{c.subj.name} {negative} {item}"
        else:
            say = _say(c.subj.name, mood, pres, pres[:-1] if opinion else "like", item)
        done = _emit(c, kind, predicate, item, obj.end, mood, say) or done
    return done
