"""Plans with a verb phrase as object: "I'm going to learn Spanish" (``plans_to``), "I'd love to visit Japan"
(``wants_to``).
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _Clause, _Mood, _object
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_modality import _mood, _say
from sodamem.model import FactKind, Modality

K, M = FactKind, Modality


def _plan(c: _Clause, at: int, predicate: str = "plans_to") -> bool:
    m = rp.GENERIC_PLAN.match(c.text, at)
    if m is None:
        return False
    verb = m["verb"]
    if verb in rv.PLAN_STOP_VERBS or verb in rs.PRONOUN_START or verb in rs.DETERMINERS or verb.endswith(("ly", "ed")):
        return False
    if rs.AUX_WORD.match(c.text, at) or re.search(r"\b(?:be|been|being|have|has|had|do|does|did)$", c.aux):
        return False
    gerund = re.search(r"\b(?:thinking\s+(?:of|about)|considering)$", c.aux) is not None
    if verb.endswith("ing") != gerund:
        return False
    obj = _object(c, m.end(), roles=True)
    if not obj.text or rs.object_rejected(obj.text):
        return False
    what = f"{verb} {obj.text}"
    mood = _mood(c)
    plans = "plans on" if gerund else "plans to"
    if predicate == "wants_to":
        text = _say(c.subj.name, mood, "wants to", "want to", what)
    elif mood.modality is M.HYPOTHETICAL:
        text = f"{c.subj.name} would{'' if mood.polarity else ' not'} {what}"
    else:
        text = _say(c.subj.name, _Mood(M.ASSERTED, mood.polarity), plans, plans.replace("plans", "plan"), what)
        text += "?" if mood.modality is M.QUESTION else " (reported)" if mood.modality is M.REPORTED else ""
    return _emit(c, K.PLAN, predicate, what, obj.end, mood, text, roles=obj.roles)


def _generic_plan(c: _Clause, m: re.Match[str]) -> bool:
    if not (rs.PLAN.search(c.aux) or rs.OBLIGATION.search(c.aux)):
        return False
    return _plan(c, m.start())
