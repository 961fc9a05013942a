"""Rules after a subject for events: job offers, "X took me to", trips, going places, moving, signing up, switching,
taking up, and the event verbs of ``EVENT_FORMS`` (visited, bought, started, adopted, ...).
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_patterns as rp
from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import Handler, _Clause, _is_name, _Mood, _object
from sodamem.ingest.extract.rules_emit import _emit, _relation
from sodamem.ingest.extract.rules_gender import name_gender
from sodamem.ingest.extract.rules_modality import _mood, _say
from sodamem.ingest.extract.rules_states import _org_fact, _through_time, emit_job, no_longer_employed
from sodamem.ingest.extract.rules_titles import title_after
from sodamem.model import EntityRole, FactKind, Modality

K, M = FactKind, Modality


def _offered(c: _Clause, m: re.Match[str]) -> bool:
    end = _object(c, m.end()).end
    mood = _mood(c)
    text = f"{c.speaker} was offered {m['obj']} by {c.subj.name}"
    org = (EntityRole("organization", c.subj.name),)
    return _emit(c, K.EVENT, "job_offer", m["obj"], end, mood, text, roles=org, subject=c.speaker)


def _took_me(c: _Clause, m: re.Match[str]) -> bool:
    obj = _object(c, m.end(), roles=True)
    if rs.object_rejected(obj.text):
        return False
    mood = _mood(c)
    roles = (EntityRole("companion", c.subj.name), *obj.roles)
    text = _say(c.speaker, mood, "went", "go", f"to {obj.text} with {c.subj.name}")
    return _emit(c, K.EVENT, "went", obj.text, obj.end, mood, text, roles=roles, subject=c.speaker)


_A_TIME = re.compile(
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|spring|summer|autumn|fall|winter|tomorrow|the\s+\d|"
    r"next\s+(?:week|weekend|month|year|spring|summer|autumn|fall|winter))\b",
    re.IGNORECASE,
)


_PASSIVE = re.compile(r"\b(?:is|are|was|were|be|been|being|got|gets)\b", re.IGNORECASE)  # not "she's moved"


def _move(c: _Clause, m: re.Match[str]) -> bool:
    verb, prep = m["verb"].replace("relocat", "mov"), (m["prep"] or "")  # "relocated" is "moved"
    if not prep:
        return _moved_out(c, m) if re.search(r"\bout\b", m["adv"]) else False
    obj = _object(c, m.end(), roles=True)
    if not obj.text or rs.object_rejected(obj.text) or _A_TIME.match(obj.text):
        return False  # "the trip is moved to september" moves a day, not a home
    if verb == "moved" and _PASSIVE.search(c.aux) and c.subj.name != c.speaker:
        return False  # "Lofoten is moved to ...", "the office was moved to Leeds" (not "we were moved to Aberdeen")
    mood = _mood(c, ing=verb == "moving")
    if verb == "moving" and not (rs.COPULA.search(c.aux) or rs.PLAN.search(c.aux)):
        return False
    origin: tuple[EntityRole, ...] = ()
    place = obj.text
    if prep == "from":
        # "from Denver to Seattle": a move to Seattle, from Denver; "from London" alone names no destination
        origin_text, to, _ = obj.text.partition(" to ")
        destination = obj.text.rpartition(" to ")[2]  # "from Denver to Seattle to Portland": Portland
        origin = (EntityRole("origin", origin_text),)
        if not to or not destination[:1].isupper():
            text = _say(c.subj.name, mood, "moved", "move", f"from {obj.text}")
            return _emit(c, K.EVENT, "moved", None, obj.end, mood, text, roles=(*origin, *obj.roles))
        place = destination
    text = _say(c.subj.name, mood, "moved", "move", f"to {place}")
    done = _emit(c, K.EVENT, "moved", place, obj.end, mood, text, roles=(*origin, *obj.roles))
    home = place if place[:1].isupper() else next((r.entity for r in obj.roles if r.role == "location"), None)
    dwelling = _NAMED_DWELLING.match(place)
    home = (dwelling["place"] or dwelling["town"]) if home is None and dwelling else home  # "the Edinburgh flat"
    if home is None and prep in ("into", "in to") and _A_DWELLING.fullmatch(place):
        home = place  # "Moved into the studio last weekend!": home is the studio
    if home is None and _typed_place(c, place):
        home = place  # "we moved to viña del mar! tiny flat near the estero", typed in lower case
    if home and verb == "moved" and mood.modality is M.ASSERTED and mood.polarity:
        _emit(c, K.STATE, "lives_in", home, obj.end, mood, _say(c.subj.name, mood, "lives in", "live in", home))
    return done


# a place name typed in lower case: one to three words, no article or possessive ("viña del mar", "tallinn")
_TYPED_PLACE = re.compile(
    r"[^\W\d_][\w'’-]*(?:\s+(?:de|del|la|le|los|las|am|an|upon|on|sur|da|do|di)?\s*[^\W\d_][\w'’-]*)?"
)
_NOT_A_TOWN = frozenset(
    """town city home school work college uni university campus bed hospital abroad away overseas there here it
    this that be get live work help start stay join another somewhere nowhere part full night day""".split()
)
_A_DWELLING = re.compile(
    r"(?:the|a|my|our)\s+(?:new\s+|little\s+|tiny\s+)?(?:studio|flat|apartment|house|condo|bungalow|cottage|dorm)",
    re.IGNORECASE,
)
_A_HOME = re.compile(
    r"\b(?:flat|apartment|house|place|home|neighbou?rhood|lease|rent|movers|removalists?|boxes|unpack\w*|landlord)\b",
    re.IGNORECASE,
)


def _typed_place(c: _Clause, place: str) -> bool:
    """A town typed in lower case ("viña del mar"): a bare word or two, no article, the move the speaker's own (not
    "I was moved to tears"), and a home said in the turn (not "I moved to marketing", "i moved to decaf")."""
    if not _TYPED_PLACE.fullmatch(place) or place.split()[0] in _NOT_A_TOWN | rv.DETERMINERS_TYPED:
        return False
    if re.search(r"\b(?:was|were|been|being|get|got|gets)$", c.aux):
        return False
    return _A_HOME.search(c.p.turn.text) is not None


_NAMED_DWELLING = re.compile(  # "the Edinburgh flat", "a flat in Porto", "my new place in Porto"
    rf"(?:the|our|my|a|a\s+new)\s+(?:(?P<place>{rv.NAME})\s+(?:flat|apartment|house|home|place|condo)|"
    rf"(?:new\s+)?(?:flat|apartment|house|home|place|condo)\s+in\s+(?P<town>{rv.NAME}))$"
)


_HOUSEMATES = frozenset({"roommate", "flatmate", "housemate"})


def _moved_out(c: _Clause, m: re.Match[str]) -> bool:
    """ "Carlos moved out last weekend": someone the speaker lived with no longer does (a denial in the slot every
    housemate word shares, see ``ingest.supersede``); the speaker's own "I moved out" names no one."""
    mood = _mood(c, c.text[m.end() :])
    name, speaker = c.subj.name, c.p.speaker
    if m["verb"] != "moved" or name == speaker or not _is_name(name):
        return False
    named_as = c.text[c.subj.start : c.subj.end]  # "My son Carlos": kin, not a housemate
    kin = re.search(rf"\b(?:{rv.REL})\b", named_as, re.IGNORECASE)
    if re.match(r"\s+of\b", c.text[m.end() :]) or (kin and kin.group().lower() not in _HOUSEMATES):
        return False  # "moved out of his parents' place"; "My son Carlos moved out": kin, not a housemate
    if mood.modality is not M.ASSERTED or not mood.polarity:
        return False  # "if Carlos moves out", "Carlos hasn't moved out"
    end = _object(c, m.end()).end if rs.object_rejected(_object(c, m.end()).text) else m.end()
    _emit(c, K.EVENT, "moved_out", None, end, mood, f"{name} moved out")
    ended = _Mood(M.ASSERTED, False, "no_longer")
    text = f"{name} no longer lives with {speaker}"
    return _emit(c, K.RELATION, "roommate", name, end, ended, text, subject=speaker)


def _start_at(c: _Clause, m: re.Match[str]) -> bool:
    """ "I started at Google last week": working there since; "I start at Spotify in two weeks", "Starting at
    Studio Dumbar on July 1st": a plan, dated, and no job yet; with a title said ("... as a design lead"), the job
    too (``rules_titles``)."""
    verb, org = m["verb"], re.sub(r"^the\s+", "", m["org"])
    if verb == "starting" and c.aux and not (rs.COPULA.search(c.aux) or rs.PLAN.search(c.aux)):
        return False
    end = _through_time(c, m.end())
    mood = _mood(c, c.text[end:], ing=verb == "starting")
    roles = (EntityRole("organization", org),)
    title = title_after(c, m.end())  # "Starting at Talkdesk on June 1st as a design lead"
    if verb == "started":
        _emit(
            c, K.EVENT, "started", org, end, mood, _say(c.subj.name, mood, "started at", "start at", org), roles=roles
        )
        if title is not None and mood.modality is M.ASSERTED and mood.polarity and not _LONG_AGO.search(c.text):
            emit_job(c, *title, mood, roles)
        return _org_fact(c, org, end, mood) if mood.modality is M.ASSERTED else True
    planned = _Mood(M.PLANNED, mood.polarity) if mood.modality is M.ASSERTED else mood
    text = _say(c.subj.name, planned, "starts at", "start at", org)
    if title is not None and planned.modality is M.PLANNED and planned.polarity:
        emit_job(c, *title, planned, roles)
    return _emit(c, K.EVENT, "started", org, end, planned, text, roles=roles)


def _new_home(c: _Clause, m: re.Match[str]) -> bool:
    """ "He got a place in Logan Square", "we bought a house in Leeds": where the subject lives now."""
    place = m["place"]
    mood = _mood(c, c.text[m.end() :])
    if mood.modality is not M.ASSERTED or not mood.polarity:
        return False
    return _emit(c, K.STATE, "lives_in", place, m.end(), mood, _say(c.subj.name, mood, "lives in", "live in", place))


def _trip(c: _Clause, m: re.Match[str]) -> bool:
    obj = _object(c, m.end(), roles=True)
    if rs.object_rejected(obj.text):
        return False
    verb = m["verb"]
    planned = verb.startswith(("doing", "taking", "going", "having", "plan", "book"))
    mood = _mood(c, ing=planned)
    if planned and mood.modality is M.ASSERTED:
        mood = _Mood(M.PLANNED, mood.polarity)
    roles = (EntityRole("location", obj.text), *obj.roles) if obj.text[:1].isupper() else obj.roles
    text = _say(c.subj.name, mood, "went", "go", f"to {obj.text}")
    return _emit(c, K.EVENT, "went", obj.text, obj.end, mood, text, roles=roles)


def _go(c: _Clause, m: re.Match[str]) -> bool:
    verb, text = m["verb"], c.text
    if verb == "been" and not rs.PERFECT.search(c.aux):
        return False
    if verb == "going" and not (rs.COPULA.search(c.aux) or rs.PLAN.search(c.aux)):
        return False
    prep = ""
    at = m.end()
    if verb == "been":
        to = re.match(r"\s+to\s+", text[at:])
        if to is None:
            return False
        prep, at = "to", at + to.end()
    elif (to := rp.GO_TO.match(text, at)) is not None:
        prep, at = "to", to.end()
    elif (for_ := rp.GO_FOR.match(text, at)) is not None:
        prep, at = for_["prep"], for_.end()
    elif (ing := rp.GO_ING.match(text, at) or rp.GO_HOME.match(text, at)) is not None:
        at = ing.end()
    else:
        return False
    obj = _object(c, at, roles=True)
    named_place = prep == "to" and obj.text[:1].isupper()
    if rs.object_rejected(obj.text) and not named_place and obj.text.split()[:1] != ["home"]:
        return False
    mood = _mood(c, text[at:], ing=verb == "going")
    roles = obj.roles
    if prep == "to" and re.match(rf"(?:The\s+)?{rv.NAME}$", obj.text):
        roles = (EntityRole("location", obj.text), *roles)
    shown = f"{prep} {obj.text}".strip()
    return _emit(c, K.EVENT, "went", obj.text, obj.end, mood, _say(c.subj.name, mood, "went", "go", shown), roles=roles)


def _simple_event(predicate: str, pres: str, base: str) -> Handler:
    def handler(c: _Clause, m: re.Match[str]) -> bool:
        nonlocal pres, base
        obj = _object(c, m.end(), roles=True)
        if rs.object_rejected(obj.text):
            return False
        mood = _mood(c, ing=bool(re.search(r"ing\b", m.group())))
        src = m.groupdict().get("src")
        if src:
            pres, base, shown = pres.removesuffix(" to"), base.removesuffix(" to"), f"from {src.strip()} to {obj.text}"
        else:
            shown = obj.text
        text = _say(c.subj.name, mood, pres, base, shown)
        return _emit(c, K.EVENT, predicate, obj.text, obj.end, mood, text, roles=obj.roles)

    return handler


# a start long past, whose title is no job held now: "I started at Tesco as a cashier when I was 16", "... in 2015"
_LONG_AGO = re.compile(r"\b(?:when\s+I\s+was|(?:19|20)\d\d|years?\s+ago|back\s+in|and\s+(?:left|quit))\b")
_BEFORE_WHERE = re.compile(r"(?P<head>\S+(?:\s+\S+){0,3}?)\s+(?:at|in|near|with|on|from)\s")


def _event(c: _Clause, m: re.Match[str]) -> bool:
    verb = m["verb"].lower()
    predicate, base, form = rp.EVENT_FORM_INDEX[verb]
    modal = rs.PLAN.search(c.aux) or rs.OBLIGATION.search(c.aux) or rs.HYPOTHETICAL.search(c.aux)
    if form == 3 and not (rs.COPULA.search(c.aux) or modal):
        return False
    if form in (0, 1) and predicate == "ran" and not modal:
        return False
    if form == 0 and re.search(r"\b(?:have|has|had)\b|'ve", c.aux) and base != verb:
        return False
    obj = _object(c, m.end(), roles=True)
    what, shown = obj.text, obj.text
    if predicate == "graduated" and what.startswith("from "):
        what = what[5:]
    if len(what.split()) > 8 and predicate in ("started", "joined", "quit"):
        # "started bouldering at a climbing gym near the harbour called Kletterhuset": bouldering
        head = _BEFORE_WHERE.match(what)
        what = shown = head["head"] if head and not head["head"].endswith("ed") else what
    proper = re.match(rf"{rv.NAME}(?=\s+(?:at|in|on|near|during|through)\s+[a-z])", what)
    if proper is not None:
        what = shown = proper.group()
    if rs.object_rejected(what) or what.split()[0].lower() in rv.EVENT_STOP_OBJECTS:
        return False
    mood = _mood(c, c.text[m.end() :], ing=form == 3 and predicate in rv.FUTURE_PROGRESSIVE)
    text = _say(c.subj.name, mood, predicate, base, shown)
    job = re.search(r"\b(?:job|role|position|work)\b", obj.text)
    orgs = [r.entity for r in obj.roles if r.role == "location"]
    roles = tuple(EntityRole("organization", r.entity) if job and r.role == "location" else r for r in obj.roles)
    done = _emit(c, K.EVENT, predicate, what, obj.end, mood, text, roles=roles)
    named = rp.NAMED_PET.search(obj.text)
    if named and predicate in ("adopted", "bought") and mood.modality is M.ASSERTED and _is_name(named["name"]):
        unique = not obj.text.startswith("another")
        kind = rv.BREEDS.get(named["rel"].lower(), named["rel"])  # "adopted a greyhound named Lulu": a dog
        _relation(c.p, c.subj.name, kind, named["name"], c.subj.start, obj.end, alias=unique)
    joined_as = _JOINED_AS.match(obj.text) if predicate == "joined" and mood.polarity else None
    if joined_as is not None and _joined_a_firm(c, joined_as, mood):
        # "I joined Monzo as a designer", "I'm joining Trent Dental as a partner from July 6th": working there (from
        # that day), in that job
        _org_fact(c, joined_as["org"], obj.end, mood)
        if mood.modality is M.ASSERTED:
            emit_job(c, joined_as["job"], obj.end, mood)
    elif job and orgs and predicate in ("started", "quit", "lost") and mood.modality is M.ASSERTED:
        state = _Mood(M.ASSERTED, predicate == "started")
        _org_fact(c, orgs[0], obj.end, state)
    elif (
        _A_JOB.match(obj.text)
        and predicate in ("quit", "lost", "left")
        and mood.modality is M.ASSERTED
        and mood.polarity
    ):
        no_longer_employed(c, obj.end)  # "I quit my job at the hospital": whichever employer held
    elif predicate == "quit" and mood.modality is M.ASSERTED and mood.polarity and re.fullmatch(rv.NAME, what):
        # "I quit Finch Labs": no longer works there (a denial ends only a works_at Finch Labs said before)
        _org_fact(c, what, obj.end, _Mood(M.ASSERTED, False))
    return done


# a firm joined in a job: "Monzo as a designer", "Trent Dental as a partner"
_JOINED_AS = re.compile(rf"(?P<org>{rv.NAME})\s+as\s+(?:an?\s+|the\s+|their\s+)?(?P<job>[a-z][\w -]{{1,40}}?)$")


def _joined_a_firm(c: _Clause, joined: re.Match[str], mood: _Mood) -> bool:
    """Whether "joined <Name> as a <job>" takes up a job: a job's word last ("as a designer", "as a partner"; not "as a
    premium member", "as a joke", "as a volunteer"), no person or title ("joined Mum", "Dr Patel"), and said as done or
    as settled ahead ("I'm joining ... from July 6th"; not "thinking of joining", "fingers crossed")."""
    title = joined["job"].split()
    org = joined["org"].split()
    if not title or title[-1].lower() not in _JOB_WORDS or name_gender(org[0]) is not None or org[0] in _TITLES:
        return False
    if mood.modality is M.ASSERTED:
        return True
    return mood.modality is M.PLANNED and rs.COPULA.search(c.aux) is not None and not _HEDGE.search(c.text)


_JOB_WORDS = (rv.JOB_HEADS | frozenset("partner associate".split())) - frozenset(
    "volunteer blogger gamer athlete student member".split()
)
_TITLES = frozenset("Mum Mom Dad Mr Mrs Ms Miss Dr Doctor Professor Prof Sir Auntie Aunt Uncle Nan Gran".split())
_HEDGE = re.compile(r"\b(?:thinking|hoping|hope|might|maybe|perhaps|fingers\s+crossed|if|unless)\b", re.IGNORECASE)


# "my job", "my nursing job", "the role": a job held (not "quit work early", "left work at five")
# ... and nothing after it but where or as what ("my job search", "the job to another candidate": no job held)
# ... or the place one worked by its kind: "Marcus quit the brewery", "I left the firm" (not "left the house")
_A_JOB = re.compile(
    r"(?:my|his|her|their|our|the|\w+'s)\s+(?:[\w-]+\s+)?(?:job|role|position|brewery|firm|company|agency|practice|"
    r"clinic|caf[eé]|restaurant|bakery|pharmacy|lab|startup|dealership|factory|warehouse|newspaper|bank)"
    r"(?:\s+(?:at|as|with|in|of)\b.*)?$",
    re.IGNORECASE,
)
