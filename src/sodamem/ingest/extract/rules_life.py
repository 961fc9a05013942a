"""Rules after a subject for the other ways people say where they work and with whom they live: "I'm employed at
Siemens", "I got hired by Siemens", "I'm at Siemens now as a data engineer", "I've been at Siemens for two years",
"I've been promoted to senior engineer", "I'm between jobs", "I married Rui last
summer", "Rui and I have been together for five years", and a death ("Peanut passed away last night", "we had to
put Biscuit down", "we lost Biscuit last week").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _Clause, _is_name, _Mood
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_modality import _mood, _say
from sodamem.ingest.extract.rules_states import _org_fact, _state_mood, _through_time, emit_job, no_longer_employed
from sodamem.model import FactKind, Modality

K, M = FactKind, Modality
P = r"(?:^|\s+)"
_JOB = r"(?:an?\s+)?(?P<job>[a-zA-Z][\w-]*(?:\s+[a-z][\w-]*){0,3}?)"
_JOB_ENDS = r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:now|at|for|in|since|and|but|last|this|on)\b)"

# "employed at/by Siemens", "hired by Siemens", "taken on at Siemens"
EMPLOYED = re.compile(
    P + rf"(?P<got>got\s+)?(?P<verb>employed|hired|taken\s+on)\s+(?:at|by)\s+(?P<org>{rv.ORG_NAME})(?![\w])"
)
# "at Siemens now as a data engineer", "at Siemens for two years", "joined Siemens as an analyst"
AT_ORG_AS = re.compile(
    P + rf"(?P<verb>at)\s+(?P<org>{rv.ORG_NAME})(?:\s+(?:now|currently))?"
    rf"(?:\s+as\s+{_JOB}{_JOB_ENDS}|(?P<long>\s+for\s+(?:\w+\s+)?(?:years?|months?|a\s+(?:year|while|decade))\b))"
)
PROMOTED = re.compile(P + rf"(?:got\s+|been\s+|was\s+|just\s+)*promoted\s+to\s+{_JOB}{_JOB_ENDS}")
NO_JOB = re.compile(P + r"(?:between\s+jobs|unemployed|out\s+of\s+work|jobless|looking\s+for\s+(?:a\s+)?work)(?![\w-])")
# "I married Rui last summer"; not "married Jane's cousin", nor a celebrant's "married Tom and Ana"
MARRIED_NAME = re.compile(P + rf"married\s+(?P<name>{rv.NAME})(?![\w'’])(?!\s+(?:and|&)\s)")
# "I've been in Rotterdam since the 1st": a home since then (a stay "since Monday" is as likely, so only with "been")
BEEN_IN_SINCE = re.compile(P + rf"been\s+(?:living\s+)?in\s+(?P<place>{rv.ORG_NAME})(?=\s+since\b)")
_A_STAY = re.compile(  # "since last week", "the food is amazing", "flying home on Sunday": a trip, not a home
    r"\s+since\s+(?:yesterday|this\s+morning|last\s+(?:night|week|weekend)|the\s+weekend|a\s+few\s+days|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
    r"|[^.!?;]*\b(?:for\s+(?:a|the|work)\b|on\s+(?:holiday|vacation|business)|conference|trip|visiting|hotel|"
    r"(?:flying|fly|going|heading)\s+(?:back\s+)?home|the\s+food)",
    re.IGNORECASE,
)
TOGETHER = re.compile(P + r"(?:been\s+)?(?:together|a\s+couple)\s+(?:for|since)\b")
# "Peanut passed away last night", "Biscuit died on Sunday", "Moth was put to sleep": nothing after the verb but a
# time or the sentence's end ("died laughing" is no death; "passed" alone is an exam as often as a death)
DIED = re.compile(
    P + r"(?:(?:sadly|finally|peacefully|just)\s+)?(?P<verb>passed\s+away|died|was\s+put\s+(?:down|to\s+sleep)|"
    r"crossed\s+the\s+rainbow\s+bridge)"
    r"(?=\s*(?:[,.;:!?)]|$)|\s+(?:last|yesterday|today|this|on|in|at|a\s+(?:few|couple)|after|overnight|peacefully|"
    r"in\s+(?:her|his|their)\s+sleep|two|three|\d|weeks?|days?|ago)\b)"
)

# "we had to put Biscuit down", "had to have Moth put to sleep", "we lost Biscuit last week", "lost our dog Rex to
# cancer": a death said of its object ("put Leo down for the night", "put Biscuit down on the sofa", "lost Biscuit in
# the park" are none; ``put_down`` checks what follows)
PUT_DOWN = re.compile(
    P + rf"(?P<to>to\s+)?(?:put\s+(?P<put>{rv.NAME_WORD})\s+(?:down|to\s+sleep)"
    rf"|(?:had|have)\s+(?P<had>{rv.NAME_WORD})\s+put\s+(?:down|to\s+sleep)"
    rf"|lost\s+(?P<kind>(?:our|my)\s+(?:{rv.PET_KIND})\s+)?(?P<lost>{rv.NAME_WORD})"
    r"(?P<cause>\s+to\s+(?:cancer|old\s+age|(?:kidney|heart|liver)\s+failure|a\s+(?:tumou?r|stroke|heart\s+attack)))?)"
    r"(?![\w'’-])"
)
_PAST_AUX = re.compile(r"(?:\s*(?:just|finally|sadly|have|has|had|'ve))*\s*")
# what, in the same turn, says the one "lost" was lost another way: found again, a match, a game, a break-up
_LOST_OTHERWISE = re.compile(
    r"\b(?:found|turned\s+up|came\s+(?:back|home)|is\s+(?:back|home)|escaped|got\s+out|ran\s+off|"
    r"(?:is|went|gone|still)\s+missing|posters?|search(?:ing|ed)?|match|game|score|season|league|ex|divorce|custody|"
    r"split\s+up|broke\s+up|kept)\b|\d\s*[-–]\s*\d",
    re.IGNORECASE,
)


def _employed(c: _Clause, m: re.Match[str]) -> bool:
    if m["verb"] == "employed" and not rs.COPULA.search(c.aux):
        return False
    if m["verb"] != "employed" and not (m["got"] or re.search(r"\b(?:got|get|was|were|been|am|is|'m|'s)\b", c.aux)):
        return False  # "I hired by ..." is no sentence; "they hired by" neither
    return _org_fact(c, m["org"], m.end(), _state_mood(c, False, m.end()))


def _at_org_as(c: _Clause, m: re.Match[str]) -> bool:
    if not (rs.COPULA.search(c.aux) or re.search(r"\bbeen$", c.aux)):
        return False  # "I'm at Siemens now as ...", "I've been at Siemens for two years"
    mood = _state_mood(c, False, m.end())
    if m["job"]:
        job = m["job"]
        if rs.object_rejected(job):
            return False
        emit_job(c, job, m.end(), mood)
    return _org_fact(c, m["org"], m.end(), mood)


def _promoted(c: _Clause, m: re.Match[str]) -> bool:
    job = m["job"]
    offset = c.p.piece.text.find(job, m.start("job"))  # the piece's offsets: a time said at the job's end is cut
    ends = [(start, end) for start, end, _ in c.p.times if offset >= 0 and offset < start and end == offset + len(job)]
    job = job[: ends[0][0] - offset].strip() if ends else job  # "promoted to senior dentist today": senior dentist
    if rs.object_rejected(job):
        return False
    mood = _mood(c, c.text[m.end() :])
    return emit_job(c, job, m.end(), mood)


def _no_job(c: _Clause, m: re.Match[str]) -> bool:
    mood = _mood(c, c.text[m.end() :], state=True)
    if not rs.COPULA.search(c.aux) or mood.modality is not M.ASSERTED or not mood.polarity:
        return False  # "if I were unemployed", "I'm not looking for work"
    return no_longer_employed(c, m.end())


def _married_name(c: _Clause, m: re.Match[str]) -> bool:
    name = m["name"]
    mood = _mood(c, c.text[m.end() :])
    if not _is_name(name) or mood.modality is not M.ASSERTED or not mood.polarity or c.aux.strip():
        return False  # "I married Rui last summer", not "I'd have married Rui", "they married Rui and Ana"
    end = m.end()
    _emit(c, K.ATTRIBUTE, "relationship_status", "married", end, mood, _say(c.subj.name, mood, "is", "be", "married"))
    return _emit(c, K.RELATION, "spouse", name, end, mood, f"{c.subj.name}'s spouse is {name}")


def _been_in_since(c: _Clause, m: re.Match[str]) -> bool:
    if not re.search(r"(?:'ve|\bhave|'s|\bhas)$", c.aux.rstrip()):
        return False  # "I've been in Rotterdam since ...", not "I been"
    if _A_STAY.match(c.text, m.end()):
        return False  # "been in Paris since Monday for a conference" is a stay
    place = re.sub(r"^the\s+", "", m["place"])
    end = _through_time(c, m.end() + len(" since"))
    mood = _mood(c, c.text[end:], state=True)
    return _emit(c, K.STATE, "lives_in", place, end, mood, _say(c.subj.name, mood, "lives in", "live in", place))


def _together(c: _Clause, m: re.Match[str]) -> bool:
    """ "Rui and I have been together for five years": Rui is the speaker's partner."""
    partner = next(iter(c.subj.companions), None)
    if c.subj.name != c.p.speaker or partner is None or not _is_name(partner):
        return False
    mood = _Mood(M.ASSERTED, True)
    text = f"{partner} is {c.p.speaker}'s partner"
    return _emit(c, K.RELATION, "partner", partner, m.end(), mood, text, subject=c.p.speaker)


_NOT_SO = re.compile(
    r"\b(?:thought|think|dream|dreamt|dreamed|worried|scared|afraid|feared|if|imagine|nearly|almost|pretend)\b",
    re.IGNORECASE,
)


_IN_A_DREAM = re.compile(r"\s+in\s+(?:my|a|his|her|their|the|last\s+night['’]s)\s+(?:dream|nightmare)", re.IGNORECASE)


def _died(c: _Clause, m: re.Match[str]) -> bool:
    """ "Peanut passed away last night": an event of the one who died, dated (``answer/pets.py`` ends a pet of that
    name with it)."""
    name = c.subj.name
    if name == c.speaker or (c.aux and not re.fullmatch(r"\s*(?:has|'s|just)?\s*", c.aux)):
        return False  # "I died laughing"; "he would have died", "thought Biscuit had died"
    if _NOT_SO.search(c.text[: c.subj.start]) or _IN_A_DREAM.match(c.text, m.end()):
        return False  # "I had a horrible dream that Biscuit died", "thought he died", "Biscuit died in my dream"
    mood = _mood(c, c.text[m.end() :])
    if mood.modality is not M.ASSERTED or not mood.polarity:
        return False
    end = _through_time(c, m.end())
    return _emit(c, K.EVENT, "died", None, end, mood, f"{name} died")


def put_down(c: _Clause, m: re.Match[str]) -> bool:
    """ "We had to put Biscuit down yesterday", "we lost Biscuit last week": a death, the event of the one it names
    (as ``_died``). Only "had to" puts down ("finally put Leo down" is a baby asleep), only with nothing after it but
    a time and the sentence's end, never a plan or a wish ("may have to put Biscuit down"), a question, or a loss the
    turn tells otherwise ("lost Biscuit yesterday but found him", "we lost Chelsea 2-1")."""
    name = m["put"] or m["had"] or m["lost"]
    if not _is_name(name) or name in (c.speaker, c.subj.name) or c.p.question:
        return False
    if not _PAST_AUX.fullmatch(c.aux) or _NOT_SO.search(c.text[: c.subj.start]):
        return False  # "might have to put Biscuit down", "we nearly lost Biscuit", "I dreamt we lost Biscuit"
    had_to = bool(m["to"]) and c.aux.endswith("had")
    if m["to"] and not had_to:
        return False  # "refuse to put Biscuit down", "going to have to"
    if m["put"] and not had_to:
        return False  # "put Leo down last night", "put Biscuit down this morning and he ran to his bowl"
    if m["had"] and m["to"] is None and not m.group().lstrip().startswith("had"):
        return False  # "have Biscuit put down" only after "had to"
    if m["lost"] and (c.subj.name != c.speaker and c.subj.name.lower() != "we" and not c.subj.companions):
        return False  # "Chelsea lost Drogba"
    if m["lost"] and not (m["kind"] or m["cause"]) and _LOST_OTHERWISE.search(c.p.turn.text):
        return False  # ("lost our dog Rex", "lost Rex to cancer" say a death whatever else the turn says)
    end = _through_time(c, m.end())
    closes = r"\s*(?:[.!?]|$)" if m["lost"] and not (m["kind"] or m["cause"]) else r"\s*(?:[.!?,;]|$)"
    if not re.match(closes, c.text[end:]):
        return False  # "lost Biscuit in the park", "put Biscuit down on the scale", "lost Netflix because ..."
    asserted = _Mood(M.ASSERTED, True)
    return _emit(c, K.EVENT, "died", None, end, asserted, f"{name} died", subject=name)
