"""Rules for taking up a job or a home, said the ways people announce them: "I'm Marcus by the way, site manager at
Hollis Construction", "Took the Coastline job", "I accepted the offer from Zalando", "Two weeks in at Octopus",
"Sam's moving in on May 1st", "Sam moved in last Thursday", "The Montreal move is set for April 28", and "I'm moving
to Rotterdam ... I move on November 1st" (the day said in a later sentence of the turn).

A move or a start said with a day to come is a plan, dated; ``answer/due_plans.py`` reads it as the state once that
day has come.
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _Clause, _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_corrections import as_time
from sodamem.ingest.extract.rules_emit import _alias, _emit
from sodamem.ingest.extract.rules_gender import name_gender
from sodamem.ingest.extract.rules_life import _A_STAY
from sodamem.ingest.extract.rules_modality import _mood, _piece_mood, _say
from sodamem.ingest.extract.rules_piece_wide import NOT_A_NAME
from sodamem.ingest.extract.rules_states import _org_fact, _through_time, emit_job
from sodamem.model import FactKind, Modality

K, M = FactKind, Modality
P = r"(?:^|\s+)"
_JOB_PHRASE = rf"(?P<job>(?:[a-z][\w-]*\s+){{0,3}}?(?:{rv.alt(rv.JOB_HEADS)}|dev))"

# "I'm Marcus by the way, site manager at Hollis Construction", "I'm Zainab, backend dev at Northwind Analytics"
INTRO_JOB = re.compile(
    rf"(?:^|(?<=[\s,;:(]))(?:I['’]m|I\s+am)\s+(?P<name>{rv.NAME_WORD})(?:\s+by\s+the\s+way|\s+btw)?\s*[,—–-]\s*"
    rf"(?:(?:an?|the)\s+)?{_JOB_PHRASE}\s+(?:at|for|with)\s+(?P<org>{rv.ORG_NAME})(?![\w])"
)
# "Two weeks in at Octopus and I'm loving it", "a month in at Coastline"
WEEKS_IN = re.compile(
    r"(?:^|(?<=[,;.!]\s))(?:(?i:so|and|well|also|now|honestly)\W+)*"
    r"(?i:(?:one|two|three|four|five|six|a\s+few|a|\d+)\s+(?:days?|weeks?|months?))\s+in\s+at\s+"
    rf"(?P<org>{rv.ORG_NAME})(?![\w])"
)
# "took the Coastline job", "accepted the offer from Zalando", "took the job at Monzo" (an offer only got is none);
# "got a job as a nurse at St Mary's", "landed a new role with Orsted", "got a Saturday job at Boots": with "a" or
# "my" only a job, role or position at a firm named after it ("an offer" is as often a phone deal or a house sale,
# "a gig" a night's booking, and in "a London job" the capital word names no employer)
_JOB_KINDS = (
    r"(?:(?i:new|full[- ]time|part[- ]time|permanent|proper|real|dream|temp|summer|winter|christmas|easter|holiday"
    r"|weekend|saturday|sunday|evening|night|office|remote|first)\s+)*"
)
_NOT_AN_EMPLOYER_AFTER = r"(?![\w])(?!\s+(?:house|home|place|site|property|flat|apartment|residence)\b)"
TOOK_JOB = re.compile(
    P + r"(?P<verb>took|take|taken|taking|accepted|accept|accepting|landed|land|got|get)\s+"
    rf"(?:(?:the|that)\s+(?P<org>(?>{rv.ORG_NAME}))\s+(?P<what>job|role|position|offer|gig)\b"
    rf"|(?:(?:the|that)\s+(?P<what2>job|role|position|offer|gig)|(?:an?|my)\s+{_JOB_KINDS}(?P<what3>job|role|position))"
    rf"(?:\s+as\s+(?:an?\s+)?{_JOB_PHRASE})?\s+(?:at|with|from)\s+(?P<org2>(?>{rv.ORG_NAME})){_NOT_AN_EMPLOYER_AFTER})"
    # not "the Google job interview", nor an offer on a house; a job at "the Smith house" is a task
    r"(?!\s+(?:interview|application|fair|search|listing|posting|ad|advert|description|on|for)\b)"
)
# "Lingvara (a localisation company) offered me project manager and i took it", "I got offered head chef at the Lantern
# Room. And I said yes."
OFFERED_JOB = re.compile(
    rf"(?:(?P<org>{rv.ORG_NAME})(?P<described>\s+\([^)]*\))?\s+offered\s+me|\bI\s+(?:got|was|['’]ve\s+been)\s+offered)\s+"
    rf"(?:(?:the|that)\s+(?:job|position|role|post)(?![\w'’-])(?!\s+(?:as|of)\b)|(?:(?:a|an|the)\s+)?"
    rf"(?:job\s+as\s+(?:an?\s+)?)?(?P<job>(?:[a-z][\w-]*\s+){{0,2}}?(?:{rv.alt(rv.JOB_HEADS)})))"
    rf"(?:\s+(?:role|job|position))?(?:\s+(?:at|with)\s+(?P<org2>{rv.ORG_NAME}))?(?![\w'’])"
)
# what follows "I took it"/"I accepted" that says it was not this offer taken
_TOOK_ELSEWHERE = re.compile(r"\s+(?:as|to|the\s+offer\s+from|an\s+offer\s+from|[A-Z]\w+)\b|\s+\w+\s+instead\b")
_NOT_TAKEN = re.compile(r"\b(?:but|too|though|instead|however)\b", re.IGNORECASE)
_TOOK_IT = re.compile(
    r"[^.!?]{0,30}?[.!?,]*\s*(?:and\s+|so\s+)?I\s+(?:took\s+it|said\s+yes|accepted(?:\s+it)?|took\s+the\s+job)\b"
)
# "Sam's moving in on May 1st", "Sam moved in last Thursday", "my mum moved in with us"
# what after "moved in" / "moving out" says a move elsewhere ("moved in March", "moved in next door", "moving out to
# Denver"), not into the speaker's home
_ELSEWHERE = (
    r"(?!\s+(?:next\s+door|downstairs|upstairs|nearby|across|around|round|opposite|down\s+the|up\s+the|to\b|west|"
    r"east|north|south|of\s+town|(?-i:[A-Z])|\d))"
)
MOVING_IN = re.compile(
    P + rf"(?P<verb>move|moves|moved|moving)\s+in(?![\w'’]){_ELSEWHERE}(?P<us>\s+with\s+(?:me|us)\b)?", re.IGNORECASE
)
# "Beckett is moving out at the end of the month" (a move out said as done is ``rules_events._moved_out``)
MOVING_OUT = re.compile(P + rf"(?P<verb>move|moves|moving)\s+out(?![\w'’])(?!\s+of\b){_ELSEWHERE}", re.IGNORECASE)
# "The Montreal move is set for April 28", "the move to Montreal is booked for the 28th"
MOVE_SET = re.compile(
    rf"\b[Tt]he\s+(?:(?P<place>{rv.NAME})\s+move|move\s+to\s+(?P<place2>{rv.NAME}))\s+(?:is|was|['’]s)\s+"
    r"(?:(?:now|finally|all)\s+)?(?:set|booked|scheduled|planned|fixed|confirmed|happening)\s+(?:for|on)\s+"
)
# "I move on November 1st", its place said earlier in the turn ("I'm moving to Rotterdam, ...", "We signed a lease on
# a flat in Fitzroy North, we move on the 20th")
MOVE_ON = re.compile(
    r"(?:^|(?<=[,;:]\s)|(?<=\s-\s))(?:(?i:and|so)\s+)?(?:I|[Ww]e)(?:['’]ll|\s+will)?\s+move(?:\s+in)?\s+"
    r"(?:on|in|at\s+the\s+end\s+of)\s+"
)
# "a pharmacist at Apotheek De Linde here in Utrecht": where the speaker is, and lives (not "here in Rome for a
# conference": a stay)
HERE_IN = re.compile(rf"\bhere\s+in\s+(?P<place>{rv.NAME})(?![\w'’])")
_FIRST_PERSON = re.compile(r"\b(?:I|I['’]m|I['’]ve|(?i:we|we['’]re|my|our))\b")
# "We're officially in Moncton, been here a week now", "I'm finally settled in Leeds"
SETTLED_IN = re.compile(
    r"\b(?:I['’]m|I\s+am|[Ww]e['’]re|[Ww]e\s+are)\s+(?:(?:now|finally|officially|all|properly)\s+)+"
    rf"(?:settled\s+|moved\s+)?in\s+(?P<place>{rv.NAME})(?![\w'’])"
)
MOVING_TO = re.compile(
    rf"\b(?:(?:moving|move|relocating)\s+(?:back\s+)?to|(?:flat|apartment|house|place|studio|condo)\s+in)\s+"
    rf"(?P<place>{rv.NAME})(?![\w'’])"
)
# "priya's just moving into my flat in Brunswick", "our house in Fitzroy has a yard" (not "our old house in Leeds")
MY_HOME_IN = re.compile(
    r"\b(?:[Mm]y|[Oo]ur)\s+(?:(?:new|little|tiny|own|shared|rented)\s+)?(?:flat|house|apartment|place|home|condo|"
    rf"studio)\s+in\s+(?P<place>{rv.NAME})(?![\w'’])"
)
# "home is a share house in Brunswick", "home's a flat in Leith"
HOME_IS = re.compile(
    rf"\b(?:[Hh]ome|[Mm]y\s+place)(?:\s+is|['’]s)\s+(?:now\s+)?(?:a|an|the|my|our)\s+(?:[\w-]+\s+){{0,3}}?in\s+"
    rf"(?P<place>{rv.NAME})(?![\w'’])"
)


def intro_job(p: _Piece) -> None:
    """ "I'm Marcus by the way, site manager at Hollis Construction": the speaker's name, job and employer."""
    text = p.piece.text
    if "I'm" not in text and "I’m" not in text and "I am" not in text:
        return  # most pieces: the search below is costly
    m = INTRO_JOB.search(text)
    if m is None or p.question or not _is_name(m["name"]) or rs.object_rejected(m["job"]):
        return
    if m["name"].lower() in NOT_A_NAME:
        return  # "I'm Canadian, software developer at Shopify"
    speaker, org = p.speaker, re.sub(r"^the\s+", "", m["org"])
    c = _piece_clause(p, m.start(), m.end(), speaker)
    mood = _piece_mood(p)
    if speaker.lower() in rv.ROLE_SPEAKERS and m["name"] != speaker:
        _emit(c, K.ATTRIBUTE, "name", m["name"], m.end("name"), mood, f"{speaker} is called {m['name']}")
        _alias(p, speaker, m["name"])
    job = m["job"]
    emit_job(c, job, m.end(), mood)
    _emit(c, K.STATE, "works_at", org, m.end(), mood, _say(speaker, mood, "works at", "work at", org))


def offered_and_took(p: _Piece) -> None:
    """ "Lingvara offered me project manager and i took it": the job and the employer, once the turn says it was
    taken (an offer alone is no job)."""
    if "offered" not in p.piece.text:
        return
    m = OFFERED_JOB.search(p.piece.text)
    if m is None or p.question:
        return
    # the employer: where the job is, else who offered it when that looks like a firm ("Lingvara (a localisation
    # company)", "Deccan Infra", "KPMG"), not like a person ("Marco offered me a bartender job at his bar")
    said_by = m["org"]
    # ... or one word offering "the job" that the turn names as a firm ("my interview at Havbrink went well, and
    # Havbrink offered me the job"), not a first name
    firm = said_by is not None and (
        m["described"]
        or len(said_by.split()) > 1
        or said_by.isupper()
        or (m["job"] is None and not _a_person(said_by) and _named_as_a_firm(said_by, p.turn.text))
    )
    org, job = m["org2"] or (said_by if firm else None), m["job"]
    if org is None or _a_person(org):
        return
    took = _TOOK_IT.match(p.turn.text, p.piece.char_start + m.end())
    starting = _STARTING.match(p.turn.text, p.piece.char_start + m.end())  # "offered me the job! I start on May 4th"
    if starting is not None and (
        _NOT_TAKEN.search(starting.group()) or _START_HEDGED.match(p.turn.text, starting.end())
    ):
        starting = None  # "but I'm not sure. I start on ...", "I start on May 4th if I accept", "... at Brightwave"
    if starting is None and (
        took is None or _TOOK_ELSEWHERE.match(p.turn.text, took.end()) or _NOT_TAKEN.search(took.group())
    ):
        return  # "... but I turned it down", "I said yes to Globex instead", "I took it as a sign"
    org = re.sub(r"^the\s+", "", org)
    c = _piece_clause(p, m.start(), m.end(), p.speaker)
    mood = _piece_mood(p)
    if job is not None:
        emit_job(c, job, m.end(), mood)
    start = _START_ON.search(p.turn.text, p.piece.char_start + m.end(), p.piece.char_start + m.end() + 200)
    day = as_time(start["day"]) if start and mood.modality is M.ASSERTED and mood.polarity else None
    if day is None and took is None:
        return  # taken only by its start, whose day is not read: no employer yet
    if day is not None:  # "... I accepted. I start on the 1st of July": there from that day
        planned = _Mood(M.PLANNED, True)
        text = _say(p.speaker, planned, "works at", "work at", org)
        _emit(c, K.STATE, "works_at", org, m.end(), planned, text, time_expression=day)
        return
    _emit(c, K.STATE, "works_at", org, m.end(), mood, _say(p.speaker, mood, "works at", "work at", org))


# the start said after an offer was taken: "I start on the 1st of July", "and I'll start there in August"
_START_ON = re.compile(
    r"\bI(?:\s+will|['’]ll)?\s+start(?:\s+there)?\s+(?P<day>(?:on|in)\s+[^,.;:!?]+?)(?=\s+and\b|[,.;:!?]|$)"
)


# a start said right after the offer takes it: "Terrafirma offered me the job! I start on May 4th" (the offer's
# sentence and the next one, nothing between that turns it down)
_STARTING = re.compile(
    r"[^.!?]{0,30}?[.!?]+\s*(?:and\s+|so\s+)?I(?:\s+will|['’]ll)?\s+start(?:\s+there)?\s+(?:on|in|next)\s"
)


# what after "I start on ..." says it is not (yet) this job: a condition, a question, a doubt, another firm
_START_HEDGED = re.compile(
    r"[^.!]*?(?:\bif\b|\bunless\b|\?|\b(?:at|with|in\s+my\s+new)\s+(?-i:[A-Z])|\bstill\s+deciding\b|\bnot\s+sure\b"
    r"|\bhaven['’]?t\s+decided\b|\bdeclin|\bturn(?:ed)?\s+(?:it\s+)?down\b|\bnope\b|\bwait\b)"
    r"|[^.!]*[.!]+\s*(?:nope|no\s+wait|wait|actually|jk|not\s+really)\b",
    re.IGNORECASE,
)


def _named_as_a_firm(name: str, text: str) -> bool:
    """Whether ``text`` says ``name`` where a firm stands: after "at"/"joined" ("my interview at Havbrink") or before
    another capitalised word ("Havbrink Energy"); not "with"/"for", where people stand ("coffee with Aditya")."""
    said = re.escape(name)
    return re.search(rf"\b(?:at|joined)\s+{said}\b|\b{said}\s+[A-Z]", text) is not None


def weeks_in(p: _Piece) -> None:
    """ "Two weeks in at Octopus and I'm loving it": the speaker works there."""
    if " in at " not in p.piece.text:
        return
    m = WEEKS_IN.search(p.piece.text)
    if m is None or p.question:
        return
    org = re.sub(r"^the\s+", "", m["org"])
    c = _piece_clause(p, m.start(), m.end(), p.speaker)
    mood = _piece_mood(p)
    _emit(c, K.STATE, "works_at", org, m.end(), mood, _say(p.speaker, mood, "works at", "work at", org))


# back at a job one had: "I went back to work at Costa", "I'm back working at Costa", "Back at Costa as a shift
# lead", "I started back at Costa as a supervisor", "Costa rehired me", "Costa hired me back as a shift lead". Not "I
# went back to Costa for a flat white" or "I'm back at Costa" alone (a customer says those too), not "started back at
# Slimming World" without a job's title, not "Costa took me back" (a lift home, a partner, a trip down memory lane
# say it too), not "went back to work at Christmas". Done, not to come: "Going back to work at Costa next week" is
# left out (a start whose day is read is ``offered_and_took``'s).
_SENTENCE_START = r"(?:^|(?<=[.!?]\s))"
_AS_A_JOB = rf"\s+as\s+(?:an?\s+|the\s+)?{_JOB_PHRASE}"


def _as_a_job(n: int) -> str:
    """ "as a shift supervisor", its title in the group ``job<n>`` (a pattern names each group once)."""
    return _AS_A_JOB.replace("(?P<job>", f"(?P<job{n}>")


BACK_AT_JOB = re.compile(
    rf"(?:(?:\bI(?:['’]ve|\s+have)?\s+|{_SENTENCE_START})(?i:went|gone)\s+back\s+to\s+work(?:ing)?\s+(?:at|for)"
    rf"|(?:\bI['’]m|\bI\s+am|{_SENTENCE_START})\s*(?:now\s+)?back\s+(?:working|work)\s+(?:at|for))"
    rf"\s+(?P<org>{rv.ORG_NAME})(?![\w'’])(?:{_as_a_job(1)})?"
    rf"|(?:\bI\s+|{_SENTENCE_START})(?:(?i:started)\s+back|(?:I['’]m\s+|I\s+am\s+)?(?i:back))\s+at\s+(?P<org2>{rv.ORG_NAME})"
    rf"{_as_a_job(2)}"
    rf"|{_SENTENCE_START}(?P<org3>{rv.ORG_NAME})\s+(?:(?:has|have)\s+)?(?:re-?hired\s+me|hired\s+me\s+back)\b"
    rf"(?:{_as_a_job(3)})?"
)
# what in its sentence makes it no return now: a condition, a wish, a maybe, a denial, long ago, a day to come ("If
# Costa rehired me ...", "I wish I'd gone back to work at Costa", "I never went back to work at Costa", "Years ago
# Costa rehired me")
_NO_RETURN = re.compile(
    r"\b(?:if|when|whether|unless|wish|hope|hoping|want|wanted|might|(?<!\bin\s)(?-i:may)|could|would|should|will"
    r"|maybe|never|not"
    r"|no\s+way|years\s+ago|back\s+then|used\s+to|jk|kidding"
    # to come, or a short stint: "back working at Costa from next week", "went back to work for Amazon over Christmas"
    r"|next\s+(?:week|month|year|\w+day)|tomorrow|soon|over\s+(?:christmas|the\s+(?:holidays|summer))"
    r"|for\s+the\s+(?:summer|holidays|season))\b|n['’]t\b|['’](?:d|ll)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
# who rehires one that is no employer named: a pronoun, nobody, a relative (those of ``REL_SINGLE``, and these)
_NOT_AN_EMPLOYER = frozenset("she he they it we you nobody everyone everybody someone somebody mam ex".split())


def back_at_job(p: _Piece) -> None:
    """ "I went back to work at Costa", "Costa rehired me": the speaker works there again (after a quit, the
    employer said since in its place)."""
    lowered = p.piece.text.lower()
    if p.question or ("back" not in lowered and "hired" not in lowered):
        return
    for m in BACK_AT_JOB.finditer(p.piece.text):
        org = m["org"] or m["org2"] or m["org3"]
        first = org.split()[0].lower()
        if _a_person(org) or org.lower() in NOT_A_NAME or first in _NOT_AN_EMPLOYER or first in rv.REL_SINGLE:
            continue  # "Tom rehired me", "She hired me back": a person, not where one works
        text = p.piece.text
        sentence_start = max((e.end() for e in _SENTENCE_END.finditer(text, 0, m.start() + 1)), default=0)
        ends = _SENTENCE_END.search(text, m.end())
        if as_time(org) is not None or _NO_RETURN.search(text, sentence_start, ends.end() if ends else len(text)):
            continue  # "went back to work at Christmas"; "If Costa rehired me I'd be thrilled"
        org = re.sub(r"^(?i:the)\s+", "", org)
        c = _piece_clause(p, m.start(), m.end(), p.speaker)
        mood = _piece_mood(p)
        job = m["job1"] or m["job2"] or m["job3"]
        if job:
            emit_job(c, job, m.end(), mood)
        _emit(c, K.STATE, "works_at", org, m.end(), mood, _say(p.speaker, mood, "works at", "work at", org))


def took_job(c: _Clause, m: re.Match[str]) -> bool:
    what, org = m["what"] or m["what2"] or m["what3"], m["org"] or m["org2"]
    if what == "offer" and m["verb"] in ("got", "get"):
        return False  # "I got the offer from Zalando": not taken yet
    if _a_person(org) or re.fullmatch(r"(?:the\s+)?[A-Z]\w+s", org):
        return False  # "accepted the offer from the Hendersons": a family, not an employer
    if m["what3"] and re.search(r"\sfrom\s+$", m.group()[: m.start("org2") - m.start()]):
        return False  # "a job from Indeed": where it was found, not who employs
    first = re.sub(r"^(?i:the)\s+", "", org).split()[0]
    if first.lower() in rv.REL_SINGLE or first.lower() in _NOT_AN_EMPLOYER or as_time(org) is not None:
        return False  # "a job with Dad at the garage", "the Saturday job"
    mood = _mood(c, c.text[m.end() :])
    if mood.modality is not M.ASSERTED or not mood.polarity or rs.object_rejected(org):
        return False  # "Didn't get the Monzo job", "if I take the Monzo job"
    if m["job"] and not rs.object_rejected(m["job"]):
        emit_job(c, m["job"], m.end("job"), mood)
    return _org_fact(c, org, m.end(), mood)


def moving_in(c: _Clause, m: re.Match[str]) -> bool:
    """ "Sam moved in last Thursday": Sam lives with the speaker; "Sam's moving in on May 1st": will, from then.
    Not "Lucy moved in with her boyfriend" (someone else's home) nor "we moved in" (a home, not a housemate)."""
    speaker, name = c.p.speaker, c.subj.name
    if name == speaker or c.subj.companions or not (_is_name(name) or name.startswith(f"{speaker}'s ")):
        return False
    if not m["us"] and re.match(r"\s*(?:with|to|into|together)\b", c.text[m.end() :]):
        return False
    verb = m["verb"]
    if verb == "moving" and not (rs.COPULA.search(c.aux) or rs.PLAN.search(c.aux)):
        return False
    end = _through_time(c, m.end())
    mood = _mood(c, c.text[end:], ing=verb == "moving")
    if not mood.polarity or mood.modality not in (M.ASSERTED, M.PLANNED):
        return False
    if verb != "moved" and mood.modality is M.ASSERTED:
        mood = _Mood(M.PLANNED, True)  # "Sam moves in on Friday"
    text = f"{name} {'moves' if mood.modality is M.PLANNED else 'moved'} in with {speaker}"
    _emit(c, K.EVENT, "moved_in", None, end, mood, text)
    lives = f"{name} lives with {speaker}" + (" (planned)" if mood.modality is M.PLANNED else "")
    return _emit(c, K.RELATION, "housemate", name, end, mood, lives, subject=speaker)


def moving_out(c: _Clause, m: re.Match[str]) -> bool:
    """ "Beckett is moving out at the end of the month": from then, Beckett no longer lives with the speaker (a
    dated plan; ``answer/due_plans.py`` reads it once the day has come)."""
    speaker, name = c.p.speaker, c.subj.name
    if name == speaker or c.subj.companions or not _is_name(name):
        return False
    if m["verb"] == "moving" and not (rs.COPULA.search(c.aux) or rs.PLAN.search(c.aux)):
        return False
    end = _through_time(c, m.end())
    mood = _mood(c, c.text[end:], ing=m["verb"] == "moving")
    if not mood.polarity or mood.modality not in (M.ASSERTED, M.PLANNED):
        return False  # "if Beckett moves out", "Beckett isn't moving out"
    ending = _Mood(M.PLANNED, False)
    return _emit(c, K.RELATION, "housemate", name, end, ending, f"{name} moves out (planned)", subject=speaker)


def move_set(p: _Piece) -> None:
    """ "The Montreal move is set for April 28": a planned move there, dated."""
    if " move" not in p.piece.text:
        return
    m = MOVE_SET.search(p.piece.text)
    if m is None or p.question:
        return
    place = m["place"] or m["place2"]
    if not _is_name(place) or _SOMEONE_ELSE.search(p.turn.text):
        return  # "Helping my sister pack, the move to Madrid is set for March 2nd"
    _planned_move(p, m.start(), m.end(), place)


def move_on(p: _Piece) -> None:
    """ "I'm moving to Rotterdam. I move on November 1st.", "We signed a lease on a flat in Fitzroy North, we move on
    the 20th": the move, dated."""
    if " move" not in p.piece.text:
        return
    m = MOVE_ON.search(p.piece.text)
    if m is None or p.question:
        return
    said = p.turn.text[: p.piece.char_start + m.start()]
    # the speaker's own move ("I'm moving to Rotterdam", "a flat in Fitzroy North"), not "my sister is moving to Madrid"
    places = [t["place"] for t in MOVING_TO.finditer(said) if _is_name(t["place"]) and _OWN.search(said[: t.start()])]
    if places:
        _planned_move(p, m.start(), m.end(), places[-1])


def here_in(p: _Piece) -> None:
    """ "I work as a pharmacist at Apotheek De Linde here in Utrecht", "We're officially in Moncton", "home is a share
    house in Brunswick": the speaker lives there (not in a stay: "here in Rome for a conference", nor in a question)."""
    text = p.piece.text
    if not _HOME_CUE.search(text):
        return
    m = SETTLED_IN.search(text) or HOME_IS.search(text) or MY_HOME_IN.search(text) or HERE_IN.search(text)
    if m is None or p.question or not _is_name(m["place"]) or not _FIRST_PERSON.search(text):
        return
    if _A_STAY.search(text) or _A_TRIP.search(p.turn.text):
        return  # "I'm here in Denver for my cousin's wedding", "We're finally in Lisbon!! Honeymoon week"
    if _SAYS_LIVE_IN.search(p.turn.text):
        return  # "we live in Manchester now ... our new flat in Ancoats": the home said plainly holds
    c = _piece_clause(p, m.start(), m.end(), p.speaker)
    mood = _piece_mood(p)
    place = m["place"]
    _emit(c, K.STATE, "lives_in", place, m.end(), mood, _say(p.speaker, mood, "lives in", "live in", place))


_A_TRIP = re.compile(
    r"\b(?:wedding|party|bachelor(?:ette)?|hen\s+do|stag\s+do|honeymoon|holiday|vacation|trip|getaway|conference|"
    r"festival|visit(?:ing)?|tour|funeral|for\s+work|business|hotel|airbnb|week\s+away|weekend\s+away|flight\s+home|"
    r"interview)\b",
    re.IGNORECASE,
)


# a word each home pattern needs: most pieces have none, and are passed by at once
_HOME_CUE = re.compile(
    r"here in|home|flat|house|apartment|place|studio|condo|officially|finally|properly|now in|all in"
)
_SAYS_LIVE_IN = re.compile(
    r"\b(?i:I|we)(?:['’](?i:m|re))?\s+(?:\w+\s+)?(?i:live|living)\s+(?:up\s+|down\s+)?(?i:in|on)\b"
)


def _a_person(name: str) -> bool:
    return name_gender(name.split()[0]) is not None


# the words before a "moving to" that make it the speaker's: "I'm", "we're", "we signed a lease on a"
_OWN = re.compile(r"(?:\bI['’]m|\bI\s+am|\b[Ww]e['’]re|\b[Ww]e\s+are|\bI|\b[Ww]e)\s+(?:[\w'’-]+\s+){0,5}$")
_SOMEONE_ELSE = re.compile(rf"\b(?:[Mm]y|[Oo]ur)\s+{rv.REL_MOD}(?:{rv.REL})\b|\b(?:[Hh]is|[Hh]er|[Tt]heir)\b")


def _planned_move(p: _Piece, start: int, end: int, place: str) -> None:
    c = _piece_clause(p, start, end, p.speaker)
    end = _through_time(c, end)
    mood = _Mood(M.PLANNED, True)
    _emit(c, K.EVENT, "moved", place, end, mood, _say(p.speaker, mood, "moved", "move", f"to {place}"))


# "We have moved! We drove down from Trondheim ... and arrived in Stavanger on Saturday the 27th of June": a move said
# with no place, then the place arrived in, later in the turn (not "we arrived in Rome" alone: a trip)
ARRIVED_IN = re.compile(rf"\barrived\s+(?:in|at)\s+(?P<place>{rv.NAME})(?![\w'’])")
_MOVED_BARE = re.compile(
    r"\b(?:I|[Ww]e)(?:['’]ve|\s+have)?\s+(?:(?:finally|just|officially|actually|now)\s+)?moved\s*(?:!+|\.|$)"
    r"|\b[Tt]he\s+move\s+is\s+(?:done|over)\b"
)


_WE_OPEN = re.compile(r"\W*(?:(?:and|so|then|finally)\s+)?(?:I|[Ww]e)\b")
# someone else right before "arrived": "My sister arrived", "Tom arrived", "she arrived"
_OTHER_ARRIVED = re.compile(
    r"(?:\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+\w+|\b(?:[Hh]e|[Ss]he|[Tt]hey)|\b[A-Z][a-z]+)\s+$"
)


def arrived_after_move(p: _Piece) -> None:
    if "arrived" not in p.piece.text:
        return
    m = ARRIVED_IN.search(p.piece.text)
    if m is None or p.question or not _is_name(m["place"]) or _A_TRIP.search(p.turn.text):
        return
    if not _WE_OPEN.match(p.piece.text) or _OTHER_ARRIVED.search(p.piece.text, 0, m.start()):
        return  # "We have moved! My sister arrived in Leeds to help": the speaker's arrival only
    if not _MOVED_BARE.search(p.turn.text, 0, p.piece.char_start + m.start()):
        return
    c = _piece_clause(p, m.start(), m.end(), p.speaker)
    mood, place = _piece_mood(p), m["place"]
    end = _through_time(c, m.end())  # "... on Saturday the 27th of June": moved that day
    _emit(c, K.EVENT, "moved", place, end, mood, _say(p.speaker, mood, "moved", "move", f"to {place}"))
    _emit(c, K.STATE, "lives_in", place, end, mood, _say(p.speaker, mood, "lives in", "live in", place))
