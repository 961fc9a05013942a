"""A role that changes hands, as people say it at work or with the people who serve them: "I have a new boss,
Grace", "Grace took over as my manager", "Omar replaced Finn as my team lead", "My boss Finn quit today".

The new holder is a relation ("user's boss is Grace"); the one who left is a denial in their relation's slot ("Finn
is no longer user's boss"), so "Who is my boss?" reads the new one and "Who is Finn?" the former one. Not read: a
question, a wish or hearsay before it, a plan ("Grace is taking over as my manager", "... took over as my manager
next week": not yet), "left" said of anything but an employer ("My boss Finn left yesterday for a conference"), a
partner or housemate who left, and "quit" said of a habit ("My boss Finn quit smoking"). A person said to leave
by name alone ("Dr Ferreira retired", "Delphine's last day was Friday") is an event, ``roles.LEFT_POST``: the
readers end the post that person held then (``answer/leavings.py``).
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit, _relation
from sodamem.ingest.extract.rules_past_relations import NOT_SAID_AS_SO, _ended_relation
from sodamem.model import FactKind, Modality
from sodamem.roles import HANDED_ON_WORDS, LEFT_POST, ONE_HOLDER_WORDS, PROMOTED_OUT, role_done_by

# roles held at work or by those one goes to, which change hands when someone leaves ("my boyfriend Tom left" is
# no ending; "my flatmate Leo moved out" is read as a move)
_ROLE = rv.alt(HANDED_ON_WORDS)
_SAID = _Mood(Modality.ASSERTED, True)
_MY = r"(?:[Mm]y|[Oo]ur)\s+(?:new\s+)?"
# "... a new boss, Grace", "... new team lead today: Sunniva", "... a new therapist called Dr. Lee"
_NEW_ROLE_NAMED = (
    rf"(?P<rel>{_ROLE})(?:\s+(?:today|yesterday|this\s+week|at\s+work))?(?:\s*[,:—–-]\s*|\s+(?:called|named)\s+)"
    rf"(?P<name>{rv.NAME})(?=\s*(?:[,.;!?)]|$)|\s+(?:and|who|she|he|they)\b)"
)
# "I have a new boss, Grace", "Got a new boss today: Grace", "we got a new manager - Priya", "I switched to a new
# dentist, Dr. Park", "Jess handed me over to a new trainer, Bex", "I've been assigned a new therapist called Dr. Lee"
_NEW_ONE = re.compile(
    r"\b(?:I\s+(?:have|got|['’]ve\s+got|have\s+got)|[Gg]ot|[Ww]e\s+(?:have|got|['’]ve\s+got)"
    r"|(?:switched|moved|changed|went)\s+(?:over\s+)?to|(?:handed|passed)\s+(?:me\s+|us\s+)?(?:over|on)\s+to"
    r"|(?:(?:was|got|['’]ve\s+been|have\s+been|I['’]m\s+being)\s+)?(?:assigned|given)|started\s+with)\s+a\s+new\s+"
    + _NEW_ROLE_NAMED
)
# "Met the new team lead today, Sunniva", "I met our new therapist: Dr. Lee"
_MET_NEW_ONE = re.compile(  # a role one has one holder of only: not "met the new teacher" of one's child
    rf"\b(?:[Mm]et|[Mm]eeting|[Ii]ntroduced\s+to)\s+(?:the|our|my)\s+new\s+(?=(?:{rv.alt(ONE_HOLDER_WORDS)})\b)"
    + _NEW_ROLE_NAMED
)
# the one who hands the speaker on, right before "handed me over to a new ...": "Jess has handed me over"
_HANDED_BY = re.compile(rf"(?<![\w'’])(?P<old>{rv.NAME})\s+(?:has\s+|just\s+)?\Z")
# a time said of a leaving: "today", "last month", "in March", "back in May", "two weeks ago"
_WHEN = (
    r"\s+(?:today|yesterday|recently|last\s+(?:week|month|year|spring|summer|autumn|fall|winter|\w+day)|this\s+(?:week|month|year|spring|summer|autumn|fall|winter)|on\s+\w+day"
    r"|(?:back\s+)?in\s+[A-Z]\w+(?:\s+\d{4})?|in\s+\d{4}|(?:a\s+few|a\s+couple\s+of|a|an|\w+)\s+(?:days?|weeks?|months?|years?)\s+ago)"
)
# "Grace took over as my manager", "Grace has taken over as our team lead" (not "... next week": not yet)
_NOT_YET = r"(?!\s+(?:next|tomorrow|soon|from|in\s+(?:a|an|two|three|a\s+few)|on\s+\w+day|after)\b)"
_TOOK_OVER = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})\s+(?:has\s+|just\s+|officially\s+)?(?:took|taken)\s+over\s+as\s+{_MY}"
    rf"(?P<rel>{_ROLE})(?![\w'’]){_NOT_YET}"
)
# "Rashida is running our team now", "Priya's in charge of the team now", "Dan is leading my team": the boss (not
# "... next week": not yet; not "Dan is running the team meeting")
_RUNS_TEAM = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})(?:\s+is|['’]s)\s+(?:now\s+)?(?:running|leading|managing|heading|in\s+charge\s+of)"
    r"\s+(?:our|my|the)\s+(?:team|department|dept)(?=\s+now\b|\s*(?:[,.;!?)]|$))"
    r"(?![^.!?]*\b(?:while|until|till|for\s+now|this\s+week|today)\b)"
)
# "from now on I'll be supervised by Dr. Whitcombe", "I'm now managed by Priya", "I'm being coached by Ana": the
# role the verb says, of the speaker
_DONE_BY = re.compile(
    r"\bI(?:['’]ll\s+be|\s+will\s+be|['’]m|\s+am|['’]ve\s+been|\s+have\s+been)\s+(?:now\s+|being\s+|going\s+to\s+be\s+)?"
    rf"(?P<verb>supervised|managed|coached|trained|tutored)\s+by\s+(?P<name>{rv.NAME})(?![\w'’])"
    r"(?!\s+(?:and|&)\s)"
)
# "Obi, who's been mentoring me on the new team", "Ana is coaching me for the marathon", "Dan has been managing me"
_DOING_ME = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME}),?\s+(?:who\s*)?(?:is|['’]s|has\s+been|['’]s\s+been|have\s+been)\s+(?:now\s+)?"
    r"(?P<verb>mentoring|coaching|training|tutoring|supervising|managing)\s+me\b"
)
_A_TASK = re.compile(r"\s+(?:on|how|to|with|in\s+how)\b")
# "Omar replaced Finn as my boss", "Omar has replaced Finn as our team lead"
_REPLACED = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})\s+(?:has\s+|just\s+)?replaced\s+(?P<old>{rv.NAME})\s+as\s+{_MY}"
    rf"(?P<rel>{_ROLE})(?![\w'’])"
)
# "My boss Finn quit today", "my therapist Anna retired last month", "Finn, my manager, left the company" (left
# only an employer: "left yesterday for a conference", "left the meeting early" are no ending); a time said after
# it dates the leaving
_LEFT = re.compile(
    rf"(?:\b{_MY}(?P<rel>{_ROLE}),?\s+(?P<name>{rv.NAME})|(?<![\w'’])(?P<named>{rv.NAME}),\s+{_MY}(?P<role>{_ROLE}),)"
    r",?\s+(?:just\s+|finally\s+|has\s+|suddenly\s+)?"
    r"(?:(?:quit|retired|resigned|got\s+fired|was\s+fired|got\s+laid\s+off|was\s+laid\s+off|moved\s+on)"
    r"(?:\s+the\s+(?:company|firm|practice|clinic|agency|business))?"
    r"|left\s+the\s+(?:company|firm|practice|clinic|agency|business))"
    rf"(?:{_WHEN})?"
    r"(?=\s*(?:[,.;!?)]|$)|\s+(?:and|so|lol)\b)"
)


# who switched or was assigned: the speaker where "I" or "we" says it, or no one does at the clause's start
_SPEAKER_BEFORE = re.compile(
    r"(?:^|[.!?,;:—–]\s*|\b(?:[Ss]o|[Aa]nd|[Bb]ut|then|finally|just|today|yesterday)\s+"
    r"|\b(?:I|[Ww]e)(?:['’](?:ve|m)|\s+\w+)?\s+|\b(?:I|[Ww]e))\Z"
)
_SAID_OF_SOMEONE = ("switched", "moved", "changed", "went", "was", "got", "assigned", "given", "started", "'ve", "’ve")


def _the_speakers(m: re.Match[str], text: str) -> bool:
    """Whether the new holder ``m`` names is the speaker's: "I switched to a new dentist", "Got a new boss", not
    "My daughter started with a new teacher"."""
    if m.re is not _NEW_ONE or not m[0].startswith(_SAID_OF_SOMEONE):
        return True
    return _SPEAKER_BEFORE.search(text[: m.start()]) is not None


# a person leaving a post, said by name alone: "Dr Ferreira retired", "Finn quit the company last week", "so
# Delphine's last day was Friday" (which post is the readers' to find, ``answer/leavings.py``); not "Finn quit
# smoking", "Finn left the meeting", "My boss Finn quit" (the role's own rule)
_POSTS = r"(?:the\s+(?:company|firm|practice|clinic|surgery|team|band|school|agency|business)|(?:his|her|their)\s+job)"
_LEFT_POST = re.compile(
    rf"(?:^|(?<=[.!?;,:])\s*|\b(?:[Ss]o|[Aa]nd|[Bb]ut|[Aa]pparently|[Ww]ell)\s+)(?P<name>{rv.NAME})\s+"
    r"(?:has\s+|just\s+|finally\s+|officially\s+)?"
    rf"(?P<verb>retired|resigned|(?:quit|left)(?=\s+{_POSTS}\b)|quit(?={_WHEN}))(?:\s+{_POSTS}\b)?"
    rf"(?:{_WHEN})?(?=\s*(?:[,.;!?)]|$)|\s+(?:and|so|but)\b)"
)
_LAST_DAY = re.compile(
    rf"(?:^|(?<=[.!?;,:])\s*|\b(?:[Ss]o|[Aa]nd|[Bb]ut|[Aa]pparently|[Ww]ell)\s+)(?P<name>{rv.NAME})['’]s\s+last\s+day"
    r"(?:\s+(?:at\s+work|in\s+the\s+office|here))?\s+was\s+(?:on\s+)?(?:\w+day|yesterday|today|last\s+\w+|the\s+\d+\w*)\b"
    r"(?![^.!?]*\b(?:before|leave|holiday|vacation|break|sabbatical)\b)"
)


# a leaving to come: "Gerald announced his retirement", "Keanu just told me he's leaving the company", "Henrik leaves in
# January", "Lena is retiring at the end of the month"; and a promotion out of the post ("Oskar got promoted to
# director"), said as done
_LEAVING = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})\s+(?:has\s+|just\s+|finally\s+|officially\s+)?"
    r"(?:(?P<announced>announced|told\s+(?:me|us|everyone)|said)\s+(?:(?:his|her|their)\s+retirement"
    r"|(?:that\s+)?(?:he|she|they)(?:['’]s|\s+is|['’]re|\s+are|\s+will\s+be)\s+(?:retiring(?!\s+(?:his|her|their|the|a|an)\b)"
    r"|leaving\s+the\s+(?:company|firm|practice|clinic|team|school)|leaving(?=\s+for\s+a\s+(?:new\s+)?(?:job|role|startup|position)"
    r"|\s+to\s+(?:join|work)|\s*[,.;!?]|\s*$)))"
    r"|(?:is|['’]s)\s+(?:retiring(?!\s+(?:his|her|their|the|a|an)\b)|leaving\s+the\s+(?:company|firm|practice|clinic|team|school))"
    r"|(?P<promoted>got\s+(?:a\s+)?promot(?:ed|ion)\s+(?:to|out)))"
    r"(?![^.!?]*\b(?:early|tonight|for\s+the\s+day|for\s+lunch|at\s+\d|holiday|vacation|trip)\b)"
)
_WISHED = re.compile(r"\b(?:might|may|could|would|if|rumou?r|thinking\s+about|maybe)\b", re.IGNORECASE)
_SOON = _Mood(Modality.PLANNED, True)


def role_changes(p: _Piece) -> None:
    """The roles said in ``p`` to change hands (see the module docstring)."""
    text = p.piece.text
    if p.question:
        return
    said_new = (*_NEW_ONE.finditer(text), *_MET_NEW_ONE.finditer(text), *_TOOK_OVER.finditer(text))
    for m in (*said_new, *_REPLACED.finditer(text)):
        if _is_name(m["name"]) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            if not _the_speakers(m, text):
                continue  # "My friend switched to a new dentist, Dr. Park"
            _relation(p, p.speaker, m["rel"], m["name"], m.start(), m.end())
            handed = _HANDED_BY.search(text[: m.start()])  # "Jess handed me over to a new trainer, Bex": Jess was
            if (
                handed
                and m[0].startswith(("handed", "passed"))
                and _is_name(handed["old"])
                and handed["old"] != m["name"]
            ):
                _ended_relation(p, p.speaker, m["rel"], handed["old"], handed.start("old"), m.end(), clause=True)
    for m in (*_DONE_BY.finditer(text), *_DOING_ME.finditer(text)):
        if m["verb"] in ("training", "tutoring") and _A_TASK.match(text, m.end()):
            continue  # "Ana is training me on the new till system": a task, no trainer
        if _is_name(m["name"]) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            _relation(p, p.speaker, role_done_by(m["verb"]) or m["verb"], m["name"], m.start(), m.end())
    for m in _RUNS_TEAM.finditer(text):
        if _is_name(m["name"]) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            _relation(p, p.speaker, "boss", m["name"], m.start(), m.end())
    for m in _REPLACED.finditer(text):  # and the one replaced left it
        if _is_name(m["name"]) and _is_name(m["old"]) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            _ended_relation(p, p.speaker, m["rel"], m["old"], m.start(), m.end(), clause=True)
    for m in (*_LEFT_POST.finditer(text), *_LAST_DAY.finditer(text)):
        if _is_name(m["name"]) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            c = _piece_clause(p, m.start("name"), m.end(), m["name"])
            said = "left" if m.re is _LAST_DAY or m["verb"].startswith("left") else m["verb"]
            _emit(c, FactKind.EVENT, LEFT_POST, None, m.end(), _SAID, f"{m['name']} {said}", subject=m["name"])
    for m in _LEAVING.finditer(text):
        clause = text[m.start() :].split(".")[0]
        if _is_name(m["name"]) and not NOT_SAID_AS_SO.search(text[: m.start()]) and not _WISHED.search(clause):
            c = _piece_clause(p, m.start("name"), m.end(), m["name"])
            mood = _SAID if m["promoted"] else _SOON
            said = "was promoted out of their post" if m["promoted"] else "is leaving their post"
            what = PROMOTED_OUT if m["promoted"] else LEFT_POST
            _emit(c, FactKind.EVENT, what, None, m.end(), mood, f"{m['name']} {said}", subject=m["name"])
    for m in _LEFT.finditer(text):
        name, rel = m["name"] or m["named"], m["rel"] or m["role"]
        if _is_name(name) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            _ended_relation(p, p.speaker, rel, name, m.start(), m.end(), clause=True)
