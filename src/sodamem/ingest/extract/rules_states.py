"""Rules after a subject for attributes and standing states: diet, relationship status, dating, age, job, where one
is from, works, lives and studies, and what one has ("two dogs").
"""

from __future__ import annotations

import re
from dataclasses import replace

from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _Clause, _is_name, _Mood, _object, _split_roles
from sodamem.ingest.extract.rules_emit import _emit, _relation
from sodamem.ingest.extract.rules_modality import _mood, _say
from sodamem.model import EntityRole, FactKind, Modality
from sodamem.roles import COUPLE_WORDS

K, M = FactKind, Modality
# what may follow an employer's name: where it is, or that it replaced another ("at the uni library instead")
_WHERE_AT_WORK = r"on|in|near|downtown|here|there|instead"


# "going vegan in March", "going freelance from next month": a change still to come
_GOING = re.compile(r"\bgoing\s*$")
_TO_COME = re.compile(
    r"^[\s,]*(?:(?:properly|officially|fully|full[\s-]time)\s+)?(?:(?:in|from|after|by|on|starting(?:\s+(?:in|on))?|come)"
    r"\s+(?:(?:the\s+new\s+year|january|february|march|april|may|june|july|august|september|october|november"
    r"|december|spring|summer|autumn|fall|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday|next"
    r"|tomorrow)\b|a\s+(?:few\s+|couple\s+(?:of\s+)?)?(?:days?|weeks?|months?)\b|\d+\s+(?:days|weeks|months)\b)"
    r"|next\s+(?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|tomorrow\b|soon\b)",
    re.IGNORECASE,
)


def _change_mood(c: _Clause, m: re.Match[str]) -> _Mood:
    """A diet or the job one works for oneself: "going vegan in March" is a change still to come (a plan)."""
    mood = _mood(c, c.text[m.end() :], state=True)
    if mood.modality is M.ASSERTED and _GOING.search(m["pre"]) and _TO_COME.match(c.text[m.end() :]):
        return _Mood(M.PLANNED, mood.polarity)
    return mood


def _diet(c: _Clause, m: re.Match[str]) -> bool:
    if not (rs.COPULA.search(c.aux) or rp.CHANGE_VERB.search(m["pre"])):
        return False
    mood = _change_mood(c, m)
    diet = " ".join(m["obj"].lower().split())
    if re.search(r"\bstarted\b", m["pre"]):  # "I started keto last Monday": when, too
        _emit(c, K.EVENT, "started", diet, m.end(), mood, _say(c.subj.name, mood, "started", "start", diet))
    return _emit(c, K.ATTRIBUTE, "diet", diet, m.end(), mood, _say(c.subj.name, mood, "is", "be", diet))


def _self_employed(c: _Clause, m: re.Match[str]) -> bool:
    """ "I quit Hartwell. Going freelance, doing bookkeeping": working for oneself is the job now, after the one it
    ends ("job" is functional: ``ingest.supersede``)."""
    if not (rs.COPULA.search(c.aux) or rp.CHANGE_VERB.search(m["pre"])):
        return False  # "I do freelance", "want to freelance"
    mood = _change_mood(c, m)
    job = "freelance" if m["obj"].lower().startswith("freelanc") else "self-employed"
    return _emit(c, K.ATTRIBUTE, "job", job, m.end(), mood, _say(c.subj.name, mood, "is", "be", job))


def _rel_status(c: _Clause, m: re.Match[str]) -> bool:
    got = re.search(r"\b(?:get|got|getting|gotten)\b", m["pre"])
    if not (rs.COPULA.search(c.aux) or got):
        return False
    status = " ".join(m["obj"].split())
    if status == "separated" and rp.NOT_A_COUPLE.search(c.text):
        return False  # "I got separated from my husband in the crowd"
    mood = _mood(c, c.text[m.end() :], ing=bool(got), state=True)
    end = _object(c, m.end()).end
    done = _emit(c, K.ATTRIBUTE, "relationship_status", status, end, mood, _say(c.subj.name, mood, "is", "be", status))
    if got:
        verb = f"got {status}"
        _emit(
            c, K.EVENT, f"got_{rv.snake(status)}", None, end, mood, _say(c.subj.name, mood, verb, f"get {status}", "")
        )
    relation = "fiance" if status == "engaged" else "spouse"  # "engaged to Rui": Rui is the fiancé
    partner = m["to"] or next(iter(c.subj.companions), None)  # "Rui and I got engaged"
    if partner and status in ("engaged", "married") and rv.NAME_STOP.isdisjoint(partner.lower().split()):
        _emit(c, K.RELATION, relation, partner, end, mood, f"{c.subj.name}'s {relation} is {partner}")
    pair = _PAIR_BEFORE.search(c.text[: c.subj.start])
    if pair is not None and status in _COUPLE_STATUSES and _is_name(pair["first"]):
        # "Hannah and Tom got divorced": Hannah too, quoted from her name
        both = replace(c, subj=replace(c.subj, start=pair.start("first")))
        say = _say(pair["first"], mood, "is", "be", status)
        _emit(both, K.ATTRIBUTE, "relationship_status", status, end, mood, say, subject=pair["first"])
    return done


# the pair opens its clause: "Well, Hannah and Tom ...", not "I visited Jess and Tom ..."
_PAIR_BEFORE = re.compile(
    rf"(?:^|[,;:.!?]\s*|\b(?:[Ww]ell|[Ss]o|[Oo]h|[Aa]nyway|[Bb]ut|[Aa]nd|[Tt]hen)\s+)(?P<first>{rv.NAME})\s+and\s+$"
)
_COUPLE_STATUSES = frozenset({"married", "engaged", "divorced", "separated"})


def _break_up(c: _Clause, m: re.Match[str]) -> bool:
    """ "My boyfriend Tom and I broke up": Tom is no longer the speaker's partner (a denial in the couple's slot,
    which ends "boyfriend Tom" and the like), and when it happened. A couple said as ended without a name ("We broke
    up", "I broke up with my boyfriend", "My wife and I separated") is a denial of no partner, which ends whichever
    partner held then (``supersede.ends_any_partner``)."""
    speaker = c.p.speaker
    verb = " ".join(m["verb"].split())
    if verb == "dumped" and not ((m["name"] or m["role"]) and re.match(rp.DUMPED_ENDS, c.text[m.end() :])):
        return False  # whom, and nothing after: "Jake dumped me.", not "Uber dumped me in the rain", "I dumped Netflix"
    if verb == "dumped" and m["name"] not in ("me", None) and not _COUPLE_SAID.search(c.text):
        return False  # "I dumped Verizon.": a person only where a couple is spoken of
    if verb == "called it quits" and not _COUPLE_SAID.search(c.text):
        return False  # "We called it quits on the hike after two hours"
    role = m["role"] or ""  # "with my boyfriend"
    if c.subj.name == speaker:
        companion = next(iter(c.subj.companions), None)
        partner = m["role_name"] or (m["name"] if m["name"] and m["name"] != "me" else companion)
        if partner is not None and partner == companion and partner.startswith(f"{speaker}'s "):
            role = partner.removeprefix(f"{speaker}'s ")  # "My wife and I separated"
            if role not in COUPLE_WORDS:
                return False  # "My sister and I split up": no couple
            partner = None
    elif m["name"] == "me":
        partner = c.subj.name  # "Tom broke up with me"
        if partner.startswith(f"{speaker}'s "):  # "My girlfriend broke up with me"
            role, partner = partner.removeprefix(f"{speaker}'s "), None
            if role not in COUPLE_WORDS:
                return False
    else:
        return False  # someone else's couple: the relationship status rule reads "Hannah and Tom got divorced"
    mood = _mood(c, c.text[m.end() :])
    if mood.modality is not M.ASSERTED or not mood.polarity:
        return False
    if rp.NOT_A_COUPLE.search(c.text):
        return False  # "Our band was great until we broke up", "Tom and I split up at the festival"
    end = _through_time(c, m.end())  # "broke up back in 2019": the ending is dated then, not when said
    ended = _Mood(M.ASSERTED, False, "no_longer")
    if partner is None:
        if not role and not _COUPLE_WE.match(c.text, c.subj.start):
            return False
        if not role and not (_COUPLE_VERB.fullmatch(m["verb"]) or _COUPLE_SAID.search(c.text)):
            return False  # "We split up and my husband went left": a couple only where their relationship is said
        whom = f"{speaker}'s {role}" if role else "their partner"
        _emit(c, K.EVENT, "broke_up", None, end, mood, f"{speaker} broke up with {whom}", subject=speaker)
        text = f"{speaker} and {whom} are no longer a couple"
        return _emit(c, K.RELATION, "partner", None, end, ended, text, subject=speaker)
    if not _is_name(partner):
        return False
    _emit(c, K.EVENT, "broke_up", partner, end, mood, f"{speaker} broke up with {partner}", subject=speaker)
    return _emit(
        c, K.RELATION, "partner", partner, end, ended, f"{partner} is no longer {speaker}'s partner", subject=speaker
    )


_COUPLE_WE = re.compile(r"[Ww]e\b")
# verbs said only of a couple; "split up" and "separated" are said of any group unless a couple is spoken of
_COUPLE_VERB = re.compile(
    r"brok(?:e|en)\s+up|(?:got\s+)?divorced|ended\s+things|called\s+it\s+quits|(?:called|broke)\s+off\s+\w+\s+engagement"
)
_COUPLE_SAID = re.compile(r"\b(?:marriage|relationship|divorce|ex|dating|together|couple)\b", re.IGNORECASE)


def _dating(c: _Clause, m: re.Match[str]) -> bool:
    if not rs.COPULA.search(c.aux) or not _is_name(m["name"]):
        return False
    mood = _mood(c, state=True)
    _emit(c, K.ATTRIBUTE, "relationship_status", "dating", m.end(), mood, _say(c.subj.name, mood, "is", "be", "dating"))
    text = _say(c.subj.name, mood, "is dating", "date", m["name"])
    return _emit(c, K.RELATION, "dating", m["name"], m.end(), mood, text)


_AGE_ENDS = re.compile(r"(?:\s+years?\s+old)?\s*(?:[,.!;)]|$)")
_WHEN_BEFORE = re.compile(r"\b(?:when|since|after|before|until|till|once|by\s+the\s+time)\s+$", re.IGNORECASE)


def _age(c: _Clause, m: re.Match[str]) -> bool:
    said = m["age"]
    age = int(said) if said.isdigit() else rp.AGE_WORDS[said.lower()]
    if not (m["turn"] or re.fullmatch(r"'m|'s|am|is|'m now|am now|is now", c.aux)) or age > 120:
        return False
    if c.subj.tentative and not m["turn"]:
        return False  # "Kuba turned 6 today!" is an age in any session; "Level is 5" is none
    if m["turn"] and _WHEN_BEFORE.search(c.text[: c.subj.start]):  # "When I turned ten, ...": an age then
        return False
    if not said.isdigit() and not m["turn"] and not _AGE_ENDS.match(c.text, m.end()):
        return False  # "I'm two and a half hours from home", "I'm one and done": a word number is an age only alone
    mood = _mood(c, ing=bool(m["turn"] and m["turn"].startswith("turning")), state=True)
    text = _say(c.subj.name, mood, "is", "be", f"{age} years old")
    return _emit(c, K.ATTRIBUTE, "age", str(age), m.end("age"), mood, text)


def _job(c: _Clause, m: re.Match[str]) -> bool:
    if not rs.COPULA.search(c.aux) or c.aux.endswith("being"):
        return False
    job = " ".join(m["job"].lower().split())
    if job.split()[-1] in rv.HOBBY_HEADS and not m["org"] and not _FOR_A_LIVING.match(job):
        return False  # "an asthmatic runner"; not "a professional cyclist", "a full-time travel blogger"
    mood = _mood(c, state=True)
    end = m.end()
    done = emit_job(c, job, end, mood)
    if m["org"]:
        _org_fact(c, m["org"], end, mood, student=job == "student")
    return done


_FOR_A_LIVING = re.compile(r"(?:professional|pro|full-time|full\s+time|paid|semi-pro)\b")


def emit_job(c: _Clause, job: str, end: int, mood: _Mood, roles: tuple[EntityRole, ...] = ()) -> bool:
    """The subject's job ("works as a UX designer"), in ``mood``; ``roles``: the employer it is taken up at."""
    text = _say(c.subj.name, mood, "works as", "work as", rv.a_or_an(job))
    return _emit(c, K.ATTRIBUTE, "job", job, end, mood, text, roles=roles)


def _from(c: _Clause, m: re.Match[str]) -> bool:
    grew = m["grew"] is not None
    if not grew and not re.search(r"(?:'m|'s|'re|\b(?:am|is|are|originally))$", c.aux):
        return False
    place = re.sub(r"^the\s+", "", m["place"])
    mood = _mood(c, state=True)
    predicate, pres, base = ("grew_up_in", "grew up in", "grow up in") if grew else ("comes_from", "is from", "be from")
    text = _say(c.subj.name, mood, pres, base, place)
    return _emit(c, K.ATTRIBUTE, predicate, place, m.end(), mood, text)


def _org_fact(c: _Clause, org: str, end: int, mood: _Mood, *, student: bool = False) -> bool:
    org = re.sub(r"^the\s+", "", org)
    if student:
        return _emit(c, K.STATE, "studies_at", org, end, mood, _say(c.subj.name, mood, "studies at", "study at", org))
    return _emit(c, K.STATE, "works_at", org, end, mood, _say(c.subj.name, mood, "works at", "work at", org))


def _work(c: _Clause, m: re.Match[str]) -> bool:
    text, verb = c.text, m["verb"]
    if verb == "working" and not rs.COPULA.search(c.aux) and not c.subj.dropped:
        return False
    mood = _state_mood(c, verb == "worked", m.end())
    as_ = rp.WORK_AS.match(text, m.end())
    if as_ is not None:
        obj = _object(c, as_.end())
        job, org = obj.text, None
        split = rp.ORG_SPLIT.search(job)
        if split is not None:
            job, org = job[: split.start()], split["org"]
        if rs.object_rejected(job):
            return False
        job = re.sub(r"^an?\s+", "", job)
        emit_job(c, job, obj.end, mood)
        if org:
            _org_fact(c, org, obj.end, mood)
        return True
    at = rp.AT_ORG.match(text, m.end())
    if at is None:
        return False
    obj = _object(c, at.end())
    org = _org_and_job(c, obj.text, obj.end, mood)  # "at Google as a software engineer"
    named = _NAME_THEN_WHERE.match(org)  # "at Tesco in Bristol", "at Google on weekends": Tesco, Google
    if named is not None and named["org"].split()[0].lower() in _HOLIDAYS:
        return False  # "I work at Christmas in a toy shop"
    org = named["org"] if named is not None else org
    capitalised = re.fullmatch(rv.ORG_NAME, org) is not None  # "St. Mary's Hospital"
    if rs.object_rejected(org) and not capitalised:
        return False
    if (not capitalised and not re.match(r"(?:a|an|the)\s", org)) or len(org.split()) > 5:
        return False
    return _org_fact(c, org, obj.end, mood)


_HOLIDAYS = frozenset("christmas easter thanksgiving halloween diwali eid hanukkah passover weekends".split())
# an employer's name, then where or when one works there
_NAME_THEN_WHERE = re.compile(
    rf"(?P<org>{rv.ORG_NAME})\s+(?=(?:{_WHERE_AT_WORK}|outside|around|off|during|since|every|most|with)\s)"
)


def _teach(c: _Clause, m: re.Match[str]) -> bool:
    verb, what = m["verb"], m["what"]
    if verb == "teaching" and not rs.COPULA.search(c.aux):
        return False
    if what is not None and (rs.object_rejected(what) or what.split()[0] in ("a", "an", "the", "my", "there")):
        return False  # "taught a class at ...", "teach there at ..."
    mood = _state_mood(c, verb == "taught", m.end())
    job = f"{what} teacher" if what else "teacher"
    emit_job(c, job, m.end(), mood)
    return _org_fact(c, m["org"], m.end(), mood)


# "as soon as I graduated", "as expected", "as part of the payments team": no job title
_NOT_A_JOB = re.compile(
    r"(?:soon|expected|usual|always|well|planned|promised|agreed|part|result|much|long|far|of|if|though|per)\b"
)


def _org_and_job(c: _Clause, org: str, end: int, mood: _Mood) -> str:
    """The employer of "<org> as a <job>", emitting the job fact on the way; ``org`` as it is without "as"."""
    as_job = re.search(r"\s+as\s+(?:an?\s+)?(?P<job>[a-z][\w -]*)$", org)
    if as_job is not None:
        job = as_job["job"]
        if not rs.object_rejected(job) and not _NOT_A_JOB.match(job):
            emit_job(c, job, end, mood)
        org = org[: as_job.start()]
    return _NOW_AFTER.sub("", org)  # "at Boots now as a pharmacist"


_NOW_AFTER = re.compile(r"\s+(?:now|currently|nowadays|these\s+days)$")


# "a job at the uni library (instead)": a definite workplace, up to two lower-case words before its kind
_WORKPLACES = rv.alt(
    """library hospital school uni university college cafe café restaurant bar pub shop store bakery gym clinic museum
    hotel bank office factory warehouse farm nursery pharmacy supermarket council airport lab salon studio theatre
    cinema zoo daycare agency bookshop bookstore garage surgery practice""".split()
)
_DEFINITE_WORKPLACE = re.compile(
    rf"the\s+(?:[a-z][\w-]*\s+){{0,2}}?(?:{_WORKPLACES})(?=\s*$|\s+(?:{_WHERE_AT_WORK})\b)"
)


def _new_job(c: _Clause, m: re.Match[str]) -> bool:
    if m["offer"] and m["verb"].startswith("g"):  # "got a job offer at X" is not yet a job there
        return False
    mood = _mood(c, c.text[m.end() :], ing=m["verb"].endswith("ing"))
    obj = _object(c, m.end())
    org = _org_and_job(c, obj.text, obj.end, mood)  # "at Orbital as a staff engineer"
    named = re.match(rf"{rv.ORG_NAME}(?![\w'’])", org) or _DEFINITE_WORKPLACE.match(org)
    # a named employer or a definite one ("the uni library"), not "at a cafe near home"; and where it is: "the
    # Sonoran Water Lab on campus"
    if named is None or not re.fullmatch(rf"(?:\s+(?:{_WHERE_AT_WORK})\b.*)?", org[named.end() :]):
        return False
    org = named.group()
    if org.startswith("the ") and rs.object_rejected(org[4:]):
        return False
    if m["verb"].startswith("start"):  # "I started a new job at Lumen Health": when, too
        what = m["what"]
        _emit(c, K.EVENT, "started", what, m.end("what"), mood, _say(c.subj.name, mood, "started", "start", what))
    # "started a new job as a UX designer at Fernhill Studio", "got a research assistant position at ..."
    title = " ".join(m["title"].split())
    job = m["job"] or (title if title and title.split()[-1] in rv.JOB_HEADS else None)
    if job and not rs.object_rejected(job) and not _NOT_A_JOB.match(job):
        emit_job(c, job, obj.end, mood)
    return _org_fact(c, org, obj.end, mood)


def _lost_job(c: _Clause, m: re.Match[str]) -> bool:
    """ "I got laid off from Google": an event, and no longer working there; without a named employer ("I was
    fired") no longer working wherever one worked then (a denial of no value, see ``no_longer_employed``)."""
    mood = _mood(c, c.text[m.end() :])
    if mood.modality is not M.ASSERTED or not mood.polarity:
        return False  # "if I get fired", "I wasn't fired"
    if not (m["got"] or re.search(r"\b(?:was|were|been|be|being|am|is|are)\b|'s|'m|'re", c.aux)):
        return False  # "I fired my assistant", "I let go of it": the speaker did it
    verb = " ".join(m["verb"].lower().split())
    end, org = _through_time(c, m.end()), None
    if m["org"]:
        # "from Google last Friday": Google; "from Starbucks back in college": Starbucks (an old job, which ends
        # nothing that holds)
        named = re.match(r"(?:the\s+)?(?P<org>[A-Z][\w&'’-]*(?:\s+[A-Z][\w&'’-]*)*)", m["org"])
        if named is None or not _is_name(named["org"]):
            return False
        org = named["org"]
        end = _through_time(c, m.start("org") + named.end())
    said = f"{c.subj.name} was {verb}" + (f" by {org}" if org else "")
    _emit(c, K.EVENT, rv.snake(verb), org, end, mood, said)
    ended = _Mood(M.ASSERTED, False, "no_longer")
    if org is not None:
        return _org_fact(c, org, end, ended)
    return no_longer_employed(c, end)


def _through_time(c: _Clause, end: int) -> int:
    """``end``, or the end of a time said right after it ("laid off in 2020", "broke up back in 2019"), so the
    quote holds the time and the fact starts then."""
    for start, stop, _ in c.p.times:
        if start >= end and re.fullmatch(r"[\s,]*(?:back\s+)?", c.text[end:start]):
            return stop
    return end


def no_longer_employed(c: _Clause, end: int) -> bool:
    """A denial of works_at with no value: it ends whichever employer held then (``supersede.ANY_VALUE``)."""
    ended = _Mood(M.ASSERTED, False, "no_longer")
    return _emit(c, K.STATE, "works_at", None, end, ended, f"{c.subj.name} no longer works where they worked")


def _state_mood(c: _Clause, past: bool, after: int) -> _Mood:
    mood = _mood(c, c.text[after:], state=True)
    if past and mood.polarity and mood.modality is M.ASSERTED and not rs.PERFECT.search(c.aux):
        return _Mood(M.ASSERTED, False, "past")
    return mood


# A place said before by its kind ("the city", "this town"), standing for the last one named in the turn
_THE_PLACE = re.compile(
    r"(?:the|this|that)\s+(?:same\s+)?(?:city|town|village|area|country|region|island|neighbou?rhood)", re.IGNORECASE
)
# ... said as where one is or lives ("here in Trondheim", "I live in Leeds", "moved to Bath"), not any name after
# a preposition ("I talked to Sarah", "I work in Marketing", "I flew in from Oslo")
_PLACE_SAID = re.compile(
    rf"\b(?:here\s+in|(?:live|lives|lived|living|based|settled)\s+in|moved\s+to|moving\s+to)\s+({rv.ORG_NAME})(?![\w])"
)


def _live(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"]
    # "I'm based in Leeds", not "a novel based in Leeds"; "My father has settled in Ålesund"
    settled = verb == "settled" and rs.PERFECT.search(c.aux)
    # ... and "Settled in Porto finally", "Lena here, based in Berlin": no subject typed, the speaker's own
    dropped = c.subj.start == c.subj.end == 0 or (c.subj.start == c.subj.end and not c.aux and c.subj.name == c.speaker)
    if verb in ("living", "based", "settled") and not rs.COPULA.search(c.aux) and not settled and not dropped:
        return False
    obj = _object(c, m.end(), roles=True)  # "in London with my wife Anna": the place, before "my" is renamed
    place, roles = obj.text, obj.roles
    named = re.match(rf"{rv.ORG_NAME}(?=\s+(?:with|w/|w\s|near|for|since|because|and\s+[a-z]))", place)
    place = named.group() if named else place  # "in Porto with her husband Rui": Porto
    locations = [r.entity for r in roles if r.role == "location"]
    if _THE_PLACE.fullmatch(place):  # "here in Trondheim, and I have lived in the city for seven years"
        said = _PLACE_SAID.findall(c.p.turn.text, 0, c.p.piece.char_start + m.start())
        if not said:
            return False
        place = said[-1]
    if not re.match(rf"(?:the\s+)?{rv.NAME}", place):
        if locations:
            place = locations[0]
        elif not re.match(r"(?:a|an|the)\s", place) or rp.NOT_A_HOME & set(place.lower().split()):
            return False
    if rs.object_rejected(place) and not place[:1].isupper():
        return False
    mood = _state_mood(c, verb == "lived", m.end())
    pres = "lived in" if mood.note == "past" else "lives in"
    return _emit(c, K.STATE, "lives_in", place, obj.end, mood, _say(c.subj.name, mood, pres, "live in", place))


def _study(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"]
    if verb == "studying" and not rs.COPULA.search(c.aux):
        return False
    obj = _object(c, m.end())
    first = obj.text.split()[0].lower() if obj.text else ""
    if first in rp.STUDY_STOP or rs.object_rejected(obj.text):
        return False
    mood = _state_mood(c, verb in ("studied", "majored in"), m.end())
    subject_, roles = _split_roles(obj.text, c.speaker)
    if not subject_:
        return False
    done = _emit(c, K.STATE, "studies", subject_, obj.end, mood, _say(c.subj.name, mood, "studies", "study", subject_))
    for role in roles:
        if role.role == "location":
            _org_fact(c, role.entity, obj.end, mood, student=True)
    return done


def _have(c: _Clause, m: re.Match[str]) -> bool:
    verb, num = m["verb"], " ".join(m["num"].lower().split())
    if verb == "got" and not rs.PERFECT.search(c.aux):
        return False
    neg = bool(rs.NEG.search(c.aux))
    if num == "any" and not neg:
        return False
    noun_surface = " ".join(m["noun"].lower().split())
    noun = rv.POSSESSION_FORMS[noun_surface]
    count = "0" if neg or num in ("no", "zero") else rv.count_value(num)
    if (count == "1" and noun_surface != noun) or (count not in ("0", "1") and noun_surface == noun != rv.plural(noun)):
        return False
    mood = _state_mood(c, verb in ("had", "owned"), m.end())
    if neg and mood.modality is M.NEGATED:
        mood = _Mood(M.ASSERTED, True)
    shown = f"no {rv.plural(noun)}" if count == "0" else f"{num} {m['mods']}{noun_surface}"
    pres = "had" if mood.note == "past" else "has"
    text = _say(c.subj.name, mood, pres, "have", " ".join(shown.split()))
    done = _emit(c, K.ATTRIBUTE, f"has_{rv.snake(noun)}", count, m.end(), mood, text)
    if m["name"] and count == "1" and _is_name(m["name"]):
        _relation(c.p, c.subj.name, noun, m["name"], c.subj.start, m.end())
    listed = _NAMES_AFTER.match(c.text, m.start("name") if m["name"] else m.end())
    if listed is not None and count.isdigit() and mood.polarity and mood.note != "past":
        # "two dogs, Mango and Chai": each is one of them (a count that the names do not fill names nobody)
        names = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", listed["names"])
        if len(names) == int(count) > 1 and all(_is_name(n) for n in names):
            for name in names:
                _relation(c.p, c.subj.name, noun, name, c.subj.start, listed.end(), alias=False)
    return done


_NAMES_AFTER = re.compile(
    rf"(?:,?\s+(?:(?:named|called)\s+)?)?(?P<names>{rv.NAME}(?:\s*,\s*{rv.NAME})*\s*,?\s+and\s+{rv.NAME})"
    r"(?=\s*(?:[.!?;,)]|$))"  # the list ends the clause: not "Mango and Tom has a cat"
)
