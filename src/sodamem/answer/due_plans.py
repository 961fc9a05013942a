"""Plans whose day has come: "I start at Coastline on the 25th", asked after the 25th, says where the user works.

A dated plan to take up a state (to start at an employer, to move to a place) answers a current-state question once
its day is on or before the time asked and after the value that held before it began. Plans never compete in a
slot (``ingest/supersede.py``): whether one happened is only known later, so it is read here, at question time. A
later turn that names the plan's object with words of calling it off ("the Spotify thing fell through") keeps it
from counting; so does any statement of the slot said after the plan, which speaks for itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sodamem import instants
from sodamem.ingest import timewords as tw
from sodamem.ingest.timeparse import resolve_time
from sodamem.records import FactRecord, SearchHit

# the plan's predicate -> the state it takes up ("started" only at an employer: "I start at Spotify on the 3rd", not
# "I'm starting a pottery class on March 3rd")
PLAN_STATES = {
    "started": "works_at",
    "works_at": "works_at",
    "moved": "lives_in",
    "lives_in": "lives_in",
    "housemate": "housemate",
    "job": "job",  # "Starting at Talkdesk on June 1st as a design lead"
}

CALLED_OFF = re.compile(
    r"\b(?:after\s+all|any\s?more|decided\s+not\s+to|cancel+(?:ed|led|s|ing)?|fell\s+through|falling\s+through|"
    r"call(?:ed|ing)?\s+(?:it\s+)?off|"
    r"pulled\s+out|backed\s+out|turned\s+(?:it\s+|them\s+)?down|declined|rescinded|withdr[ae]w\w*|on\s+hold|"
    r"not\s+happening|(?:didn'?t|did\s+not|won'?t|will\s+not|not)\s+"
    r"(?:get|take|go|happen|start|move|work\s+out)|changed\s+(?:my|our)\s+minds?)\b",
    re.IGNORECASE,
)
# words that move a plan's day, said of the plan: "the move got pushed to May 20th", "my start date got postponed",
# "they pushed it back a week"; not "Google pushed an update", "my sister keeps pushing us to rethink the move"
_PUT_OFF = r"(?:delayed|postponed|pushed|bumped|rescheduled|moved)"
_DELAYED = r"(?:delayed|postponed|pushed|rescheduled)"
_BEEN = r"(?:got|gets|was|is|are|were|has\s+been|have\s+been|['’]s\s+been|been)"
# how the user names a plan without its object: "the move got delayed a month", "my start date got pushed"
_A_START = r"(?:the|my)\s+(?:new\s+)?(?:job|start(?:\s+date)?|starting\s+date|offer|position|role|onboarding)"
_PLAN_NOUNS = {
    "works_at": _A_START,
    "lives_in": r"(?:the|my|our)\s+(?:big\s+)?(?:move|moving\s+(?:date|day)|relocation|move[\s-]in(?:\s+date)?)",
    "housemate": r"(?:the|(?:his|her|their)\s+)?move[\s-]in(?:\s+date)?",
    "job": _A_START,
}
_ASKER = "user"  # the subject of the asker's own plans (``state_reader.USER_ROLE``)
_DELAY = re.compile(rf"\b(?:by\s+)?(?P<n>{tw.NUM})\s+(?P<unit>day|week|fortnight|month)s?\b", re.IGNORECASE)
_UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14}


@dataclass(frozen=True, slots=True)
class PlanNews:
    """What the user said of a plan since making it: called off, or its day moved (``day`` None: to a day unknown)."""

    called_off: bool = False
    postponed: bool = False
    day: datetime | None = None


def due_plans(plans: Iterable[FactRecord], wanted: tuple[str, ...], asked_at: datetime) -> list[FactRecord]:
    """The dated plans among ``plans`` that take up one of the ``wanted`` states on or before ``asked_at``, the
    latest day first, and on one day in ``wanted``'s order ("What is my job?": the title before the employer)."""
    due = [
        f
        for f in plans
        if _due(f, asked_at) and f.polarity and f.object and PLAN_STATES.get(f.predicate) in wanted and _takes_up(f)
    ]
    return sorted(
        due,
        key=lambda f: (instants.sort_key(f.occurred_start or ""), -wanted.index(PLAN_STATES[f.predicate])),
        reverse=True,
    )


def _takes_up(plan: FactRecord) -> bool:
    """Whether a plan names what it takes up: an employer for a start, a place (a name) for a move, a title said with
    a start."""
    if plan.predicate == "started":
        return ("organization", plan.object) in plan.roles
    if plan.predicate == "job":  # a title taken up with a start ("Starting at Talkdesk ... as a design lead"), not
        # any job planned ("I'll be working as a lifeguard this summer")
        quote = " ".join(source.quote for source in plan.sources)
        return re.search(r"\b(?:start(?:s|ing)?|join(?:s|ing)?|from)\b", quote, re.IGNORECASE) is not None
    if plan.predicate == "moved":
        return (plan.object or "")[:1].isupper() or any(role == "location" for role, _ in plan.roles)
    return True


def due_endings(plans: Iterable[FactRecord], predicate: str, asked_at: datetime) -> list[FactRecord]:
    """The dated plans among ``plans`` that end a ``predicate`` value on or before ``asked_at`` ("Beckett is moving
    out at the end of the month": a planned denial of the housemate Beckett; "my last day there will be feb 25": of
    whichever employer, no value named)."""
    return [f for f in plans if _due(f, asked_at) and not f.polarity and f.predicate == predicate]


def _due(plan: FactRecord, asked_at: datetime) -> bool:
    """A plan, dated, whose day is on or before ``asked_at``."""
    return (
        (plan.modality == "planned" or (plan.modality == "reported" and _dated_after_said(plan)))
        and bool(plan.occurred_start)
        and instants.at_or_before(plan.occurred_start or "", asked_at)
    )


def _dated_after_said(fact: FactRecord) -> bool:
    """A reported plan: "Tom told me he's moving to Leeds in July", said in May, dated after it was said, and said
    as settled (not "he might move", "he's thinking about moving", "he's hoping to move")."""
    quotes = " ".join(source.quote for source in fact.sources)
    return (
        bool(fact.occurred_start)
        and instants.sort_key(fact.occurred_start or "") > instants.sort_key(fact.mentioned_at)
        and _SETTLED.search(quotes) is not None
        and _HEDGED.search(quotes) is None
    )


_SETTLED = re.compile(r"\b(?:is|are|['’]s|['’]re)\s+(?:\w+ing)\b|\bwill\b|['’]ll\b|\bgoing\s+to\b", re.IGNORECASE)
_HEDGED = re.compile(
    r"\b(?:might|may|maybe|could|would|thinking|hoping|hopes?|considering|possibly|perhaps|if|unless|wants?|wanting)\b",
    re.IGNORECASE,
)


def begins_after(plan: FactRecord, said: Iterable[FactRecord]) -> bool:
    """Whether the plan's day comes after every fact of the slot in ``said`` began and was said (a statement made
    on or after that day speaks for itself: "First week at Coastline done")."""
    day = instants.sort_key(plan.occurred_start or "")
    return all(
        instants.sort_key(f.valid_from or f.mentioned_at) < day and instants.sort_key(f.mentioned_at) < day
        for f in said
    )


def plan_news(plan: FactRecord, hits: Iterable[SearchHit]) -> PlanNews:
    """What the user said of ``plan`` after making it, in a sentence that names it (its object, or "the move", "my
    start date"): called off before its day ("The Spotify thing fell through", "I'm not going to Spotify after
    all"), or its day moved ("the move got pushed to the 30th", "the move got delayed a month"; the latest such
    word counts). Not the assistant's "if the Spotify start gets pushed back", nor "my first Spotify paycheck got
    delayed" once the day has come."""
    planned, day = instants.sort_key(plan.mentioned_at), instants.sort_key(plan.occurred_start or "")
    names, postponed = _names_plan(plan), _put_off(plan)
    news = PlanNews()
    latest = datetime.min
    for hit in sorted(hits, key=lambda h: instants.sort_key(h.timestamp)):
        said = instants.sort_key(hit.timestamp)
        if hit.speaker.lower() in _NOT_THE_USER or not planned < said:
            continue
        for sentence in _SENTENCE.findall(hit.turn_text):
            if not names.search(sentence):
                continue
            if CALLED_OFF.search(sentence) and said <= day:
                return PlanNews(called_off=True)
            moved = postponed.search(sentence)
            if moved is None or said < latest:
                continue
            new_day = _new_day(sentence[moved.end() :], plan, hit)
            if new_day is None and said > day:
                continue  # a delay said after the day, with no day: "my first Spotify paycheck got delayed"
            if new_day is not None and instants.sort_key(new_day.isoformat()) <= said:
                continue  # a day already past when said is no new day for this plan
            news, latest = PlanNews(postponed=True, day=new_day), said
    return news


def rescheduled(plan: FactRecord, hits: Iterable[SearchHit]) -> FactRecord | None:
    """``plan`` as the user's later words leave it: None when called off or put off to a day not known, else the
    plan on its (new) day."""
    news = plan_news(plan, hits)
    if news.called_off or (news.postponed and news.day is None):
        return None
    if news.day is not None:
        return replace(plan, occurred_start=news.day.isoformat())
    return plan


def news_query(plan: FactRecord) -> str:
    """Search words for what was said of ``plan`` since: its object, how it is named, and words of calling off."""
    nouns = {"works_at": "job start", "job": "job start", "lives_in": "move moving", "housemate": "moving in"}
    noun = nouns.get(PLAN_STATES.get(plan.predicate, ""), "")
    return f"{' '.join(_names(plan))} {noun} cancelled postponed delayed pushed"


def _names(plan: FactRecord) -> list[str]:
    """What names ``plan``: its object, and the employer a job is taken up at ("the Monzo job fell through" calls
    off "Starting at Monzo as a product manager")."""
    named = [plan.object] if plan.object else []
    return named + [entity for role, entity in plan.roles if role == "organization" and entity not in named]


def _names_plan(plan: FactRecord) -> re.Pattern[str]:
    return re.compile(_plan_ref(plan), re.IGNORECASE)


def _plan_noun(plan: FactRecord) -> str:
    """How a sentence names ``plan`` by its noun ("the move", "my start date"; "his move" for a relative's)."""
    noun = _PLAN_NOUNS.get(PLAN_STATES.get(plan.predicate, ""), "")
    if noun and plan.subject != _ASKER:  # a relative's: "his move", "my brother's move got pushed to next spring"
        noun = noun.replace(r"(?:the|my|our)\s+", r"(?:the|my|our|his|her|their|(?:my\s+)?[\w-]+['’]s)\s+", 1)
    return noun


def _plan_ref(plan: FactRecord) -> str:
    """How a sentence names ``plan``: its object ("Montreal", "Sam") or its noun ("the move", "my start date")."""
    noun = _plan_noun(plan)
    named = "|".join(rf"(?<!\w){re.escape(name)}(?!\w)" for name in _names(plan))
    return "|".join(rf"\b{p}\b" if p is noun else p for p in (named, noun) if p)


def _put_off(plan: FactRecord) -> re.Pattern[str]:
    """Words putting ``plan`` off, said of it: as their subject ("the move got delayed", "Sam's move-in got pushed
    back", "his move to Galway got pushed", not "our broadband in Bristol got delayed") or object ("pushed it back a
    week", "postponed the move to May")."""
    ref = _plan_ref(plan)
    # the plan's noun with its place between, put off in words that only mean a delay: "his move to Galway got
    # pushed to next spring" (not "our move to Teams got delayed", "my role at Acme has been moved to the team")
    place = re.escape(plan.object or "") if plan.object else r"(?!)"
    noun = _plan_noun(plan) or r"(?!)"
    where = rf"\b{noun}\s+(?:to|in|into|at|from|with)\s+(?:the\s+)?{place}(?!\w)\s+{_BEEN}\s+{_DELAYED}"
    plain = rf"(?<!\bin\s)(?<!\bat\s)(?<!\bto\s)(?<!\bfor\s)(?<!\bfrom\s)(?:{ref})\s+{_BEEN}\s+{_PUT_OFF}"
    subject = rf"{plain}|{where}"
    objected = rf"\b{_PUT_OFF}\s+(?:it|{ref})(?=\s+(?:back|out|to|by|until|till|a|an|one|two|three|\d))"
    return re.compile(rf"{subject}|{objected}", re.IGNORECASE)


def _new_day(rest: str, plan: FactRecord, hit: SearchHit) -> datetime | None:
    """The plan's new day as said after the postponing words: a date ("to the 30th", "until May"), or a delay
    ("a month", "by two weeks") counted from its old day."""
    delay = _DELAY.match(rest.strip()) or _DELAY.match(re.sub(r"^(?:back|out)\s+", "", rest.strip()))
    old = instants.parse(plan.occurred_start or "")
    if delay is not None and old is not None:
        low, high, _ = tw.count(delay["n"])
        count = (low + high) // 2  # "a couple of weeks": two
        unit = delay["unit"].lower()
        if unit == "month":
            return tw.add_months(old, count)
        return old + timedelta(days=count * _UNIT_DAYS[unit])
    anchor = instants.parse(hit.timestamp)
    if anchor is None:
        return None
    mention = resolve_time(rest, anchor, future=True)
    return mention.spec.start if mention is not None else None


_NOT_THE_USER = frozenset({"assistant", "system"})
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")


def latest_word(said: Iterable[FactRecord], plans: Iterable[FactRecord], asked_at: datetime) -> FactRecord | None:
    """Of one value's statements (``said``: "my roommate Carlos", "Carlos moved out") and its dated plans whose day
    has come ("Sam's moving in on May 1st", "Beckett is moving out at the end of the month"), the one that speaks
    last at ``asked_at``: a statement from when it began, a plan from its day. Whether the value holds is that
    fact's ``polarity``."""
    due = [p for p in plans if _due(p, asked_at)]
    timed = [(instants.sort_key(f.valid_from or f.mentioned_at), instants.sort_key(f.mentioned_at), f) for f in said]
    timed += [(instants.sort_key(p.occurred_start or ""), instants.sort_key(p.mentioned_at), p) for p in due]
    return max(timed, key=lambda t: (t[0], t[1]))[2] if timed else None
