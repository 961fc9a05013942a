"""Relations said as over: "my former boss Finn", "my ex-boss Finn", "my ex Sarah", "my old roommate Carlos", "Finn
was my boss", "Finn is no longer my boss", "Finn isn't my manager anymore"; and "my late husband Tom".

An ended relation is a denial in that relation's slot ("Finn is no longer user's boss"), so it ends "my boss Finn"
said before, and "Who is Finn?" reads "user's former boss". "Old" ends only a role one leaves ("my old friend" and
"my old dog" still are). "Late" says the person died: a relation of its own ("user's late husband is Tom",
predicate ``late_husband``), which neither ends a husband nor names one now. Nothing is read as over from a wish, a
hope, hearsay or a denial ("I wish Finn was my coach", "Sarah told me Finn is no longer my boss").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_modality import _piece_mood
from sodamem.ingest.supersede import PARTNER_PREDICATES
from sodamem.model import FactKind, Modality

# roles one leaves, or that leave: "my old boss" was, "my old friend" still is
ENDING_ROLES = rv.words(
    """partner husband wife boyfriend girlfriend fiance fiancé fiancee fiancée spouse colleague coworker co-worker
    boss manager mentor teacher coach therapist neighbour neighbor roommate flatmate housemate classmate teammate
    landlord"""
)
_ROLE = rv.alt(ENDING_ROLES)
_MY = r"(?:[Mm]y|[Oo]ur)\s+"
_NOT_A_NAME_AFTER = rf"(?!\s+(?:{rv.REL}|date|crush|fling|situationship)\b)"  # "my ex Tinder date": no name
# "my former boss Finn", "my ex-boss Finn", "my previous manager, Sarah"; "my ex Sarah" (a partner)
_FORMER_NAMED = re.compile(
    rf"\b{_MY}(?:(?:former|previous|ex)(?:\s+|\s*-\s*)(?P<rel>{_ROLE}),?\s+(?P<name>{rv.NAME})"
    rf"|ex\s+(?P<partner>{rv.NAME_WORD}){_NOT_A_NAME_AFTER})(?![\w'’])"
)
# "Finn is no longer my boss", "Finn isn't my manager anymore", "Finn stopped being my coach"
_NO_LONGER_MY = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})\s+(?:is\s+no\s+longer|(?P<not>isn['’]t|is\s+not)|(?:has\s+)?stopped\s+being)"
    rf"\s+{_MY}(?P<rel>{_ROLE})(?P<more>\s+any\s?more)?(?![\w'’])"
)
_PAST_MODIFIER = re.compile(r"\b(?P<word>old|late|former|previous|ex)[\s-]*$", re.IGNORECASE)
_WAS_MY = re.compile(rf"\bwas\s+{_MY}")
# "Finn was my partner for the pub quiz", "was my coach today", "was my boss at the time and he still is"
_WAS_ONLY_THEN = re.compile(
    r"^\s+(?:for|in|on|during|today|tonight|yesterday|this|last\s+night)\b|\bstill\b", re.IGNORECASE
)
# a wish, a hope, hearsay, a guess or a denial: "I wish Finn was my coach", "Sarah told me Finn is no longer ..."
_NOT_SAID_AS_SO = re.compile(
    r"\b(?:wish|wished|hope|hoping|if|unless|told|tells|said|says|heard|think|thought|guess|maybe|never|not|n['’]t"
    r"|pretend\w*|imagine|whether)\b",
    re.IGNORECASE,
)


def past_word(said: str, rel: str, after: str) -> str | None:
    """How a relation the relation patterns matched was said as over: "late" ("my late husband Tom": ``said`` is
    the text up to the relation word), "former" ("my old boss Finn", "Finn was my boss at Tesco": a role one
    leaves; ``after`` follows the match), or None (it holds)."""
    modifier = _PAST_MODIFIER.search(said)
    if modifier is not None and modifier["word"].lower() == "late":
        return "late"
    if rel.lower() not in ENDING_ROLES:
        return None
    if modifier is not None:
        return "former"
    was = _WAS_MY.search(said) is not None and rel.lower() not in PARTNER_PREDICATES  # "was my partner for the quiz"
    return "former" if was and not _WAS_ONLY_THEN.search(after) else None


def late_relation(p: _Piece, owner: str, rel: str, name: str, start: int, end: int) -> None:
    """ "my late husband Tom": a relation of its own (``late_husband``), said with its word."""
    rel = " ".join(rel.lower().split())
    c = _piece_clause(p, start, end, owner)
    _emit(c, FactKind.RELATION, rv.snake(f"late {rel}"), name, end, _piece_mood(p), f"{owner}'s late {rel} is {name}")


def ended_relation(p: _Piece, owner: str, rel: str, name: str, start: int, end: int) -> None:
    """The relation of ``owner`` to ``name`` said as over: a denial in its slot ("Finn is no longer user's boss");
    none from a question, a wish, hearsay or a denial said before it in the piece."""
    if p.question or _NOT_SAID_AS_SO.search(p.piece.text[:start]):
        return
    rel = " ".join(rel.lower().split())
    c = _piece_clause(p, start, end, owner)
    ended = _Mood(Modality.ASSERTED, False, "no_longer")
    _emit(c, FactKind.RELATION, rv.snake(rel), name, end, ended, f"{name} is no longer {owner}'s {rel}")


def ended_relations(p: _Piece) -> None:
    """The speaker's relations said as over in words the relation patterns do not read: "my former boss Finn", "my
    ex Sarah", "Finn is no longer my boss"."""
    text = p.piece.text
    for m in _FORMER_NAMED.finditer(text):
        name = m["name"] or m["partner"]
        if _is_name(name):
            ended_relation(p, p.speaker, m["rel"] or "partner", name, m.start(), m.end())
    for m in _NO_LONGER_MY.finditer(text):
        if _is_name(m["name"]) and (m["not"] is None or m["more"] is not None):
            ended_relation(p, p.speaker, m["rel"], m["name"], m.start(), m.end())
