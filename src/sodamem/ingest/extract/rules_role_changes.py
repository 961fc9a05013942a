"""A role that changes hands, as people say it at work or with the people who serve them: "I have a new boss,
Grace", "Grace took over as my manager", "Omar replaced Finn as my team lead", "My boss Finn quit today".

The new holder is a relation ("user's boss is Grace"); the one who left is a denial in their relation's slot ("Finn
is no longer user's boss"), so "Who is my boss?" reads the new one and "Who is Finn?" the former one. Not read: a
question, a wish or hearsay before it, a plan ("Grace is taking over as my manager", "... took over as my manager
next week": not yet), "left" said of anything but an employer ("My boss Finn left yesterday for a conference"), a
partner or housemate who left, and "quit" said of a habit ("My boss Finn quit smoking").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Piece
from sodamem.ingest.extract.rules_emit import _relation
from sodamem.ingest.extract.rules_past_relations import ENDING_ROLES, NOT_SAID_AS_SO, _ended_relation
from sodamem.ingest.extract.rules_states import _PARTNER_ROLES

# roles held at work or by those one goes to, which change hands when someone leaves ("my boyfriend Tom left" is
# no ending; "my flatmate Leo moved out" is read as a move)
_HANDED_ON = frozenset(
    ENDING_ROLES - _PARTNER_ROLES - rv.words("spouse roommate flatmate housemate neighbour neighbor")
)
_ROLE = rv.alt(_HANDED_ON)
_MY = r"(?:[Mm]y|[Oo]ur)\s+(?:new\s+)?"
# "I have a new boss, Grace", "Got a new boss today: Grace", "we got a new manager - Priya"
_NEW_ONE = re.compile(
    r"\b(?:I\s+(?:have|got|['’]ve\s+got|have\s+got)|[Gg]ot|[Ww]e\s+(?:have|got|['’]ve\s+got))\s+a\s+new\s+"
    rf"(?P<rel>{_ROLE})(?:\s+(?:today|yesterday|this\s+week|at\s+work))?\s*[,:—–-]\s*(?P<name>{rv.NAME})"
    r"(?=\s*(?:[,.;!?)]|$)|\s+(?:and|who|she|he|they)\b)"
)
# "Grace took over as my manager", "Grace has taken over as our team lead" (not "... next week": not yet)
_NOT_YET = r"(?!\s+(?:next|tomorrow|soon|from|in\s+(?:a|an|two|three|a\s+few)|on\s+\w+day|after)\b)"
_TOOK_OVER = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})\s+(?:has\s+|just\s+|officially\s+)?(?:took|taken)\s+over\s+as\s+{_MY}"
    rf"(?P<rel>{_ROLE})(?![\w'’]){_NOT_YET}"
)
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
    r"(?:\s+(?:the\s+(?:company|firm|practice|clinic|agency|business)|today|yesterday|last\s+(?:week|month|year)"
    r"|this\s+(?:week|month|year)|on\s+\w+day))?"
    r"|left\s+the\s+(?:company|firm|practice|clinic|agency|business))"
    r"(?=\s*(?:[,.;!?)]|$)|\s+(?:and|so|lol)\b)"
)


def role_changes(p: _Piece) -> None:
    """The roles said in ``p`` to change hands (see the module docstring)."""
    text = p.piece.text
    if p.question:
        return
    for m in (*_NEW_ONE.finditer(text), *_TOOK_OVER.finditer(text), *_REPLACED.finditer(text)):
        if _is_name(m["name"]) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            _relation(p, p.speaker, m["rel"], m["name"], m.start(), m.end())
    for m in _REPLACED.finditer(text):  # and the one replaced left it
        if _is_name(m["name"]) and _is_name(m["old"]) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            _ended_relation(p, p.speaker, m["rel"], m["old"], m.start(), m.end(), clause=True)
    for m in _LEFT.finditer(text):
        name, rel = m["name"] or m["named"], m["rel"] or m["role"]
        if _is_name(name) and not NOT_SAID_AS_SO.search(text[: m.start()]):
            _ended_relation(p, p.speaker, rel, name, m.start(), m.end(), clause=True)
