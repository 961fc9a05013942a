"""Relations said as over: "my former boss Finn", "my ex-boss Finn", "my ex Sarah", "my old roommate Carlos", "Finn
was my boss", "Finn is no longer my boss", "Finn isn't my manager anymore"; and "my late husband Tom".

Each ended relation is a denial in that relation's slot ("Finn is no longer user's boss"), so it ends "my boss Finn"
said before, and "Who is Finn?" reads "user's former boss". "Old" ends only a role one can leave ("my old friend"
and "my old dog" still are); "late" says the person died, so the relation is said with it ("user's late husband is
Tom") and names no one "user's husband".
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit
from sodamem.ingest.extract.rules_modality import _piece_mood
from sodamem.model import FactKind, Modality

# roles one leaves, or that leave: "my old boss" was, "my old friend" still is
ENDING_ROLES = rv.words(
    """partner husband wife boyfriend girlfriend fiance fiancé fiancee fiancée spouse colleague coworker co-worker
    boss manager mentor teacher coach therapist neighbour neighbor roommate flatmate housemate classmate teammate
    landlord"""
)
_ROLE = rv.alt(ENDING_ROLES)
_MY = r"(?:[Mm]y|[Oo]ur)\s+"
# "my former boss Finn", "my ex-boss Finn", "my previous manager, Sarah", "my ex Sarah" (a partner)
_FORMER_NAMED = re.compile(
    rf"\b{_MY}(?:former|previous|ex)(?:\s+|\s*-\s*)(?:(?P<rel>{_ROLE}),?\s+)?(?P<name>{rv.NAME})(?![\w'’])"
)
# "Finn is no longer my boss", "Finn isn't my manager anymore", "Finn stopped being my coach"
_NO_LONGER_MY = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})\s+(?:is\s+no\s+longer|(?P<not>isn['’]t|is\s+not)|(?:has\s+)?stopped\s+being)"
    rf"\s+{_MY}(?P<rel>{_ROLE})(?P<more>\s+any\s?more)?(?![\w'’])"
)
_PAST_MODIFIER = re.compile(r"\b(?P<word>old|late)\s*$", re.IGNORECASE)
_WAS_MY = re.compile(r"\bwas\s+(?:[Mm]y|[Oo]ur)\s+", re.IGNORECASE)


def past_word(said: str, rel: str) -> str | None:
    """How a relation matched with its modifier ("my old boss Finn": ``said`` up to "boss") was said as over:
    "late" (the person died), "former" ("old" before a role one leaves; "Finn was my boss"), or None."""
    modifier = _PAST_MODIFIER.search(said)
    if modifier is not None and modifier["word"].lower() == "late":
        return "late"
    leaves = rel.lower() in ENDING_ROLES
    if leaves and (modifier is not None or _WAS_MY.search(said)):
        return "former"
    return None


def past_relation(p: _Piece, owner: str, rel: str, name: str, start: int, end: int, word: str) -> None:
    """The relation of ``owner`` to ``name`` said as over (``word``: "former" or "late")."""
    rel = " ".join(rel.lower().split())
    c = _piece_clause(p, start, end, owner)
    if word == "late":
        _emit(c, FactKind.RELATION, rv.snake(rel), name, end, _piece_mood(p), f"{owner}'s late {rel} is {name}")
        return
    if p.question:
        return  # "Is Finn no longer your boss?" says nothing over
    ended = _Mood(Modality.ASSERTED, False, "no_longer")
    _emit(c, FactKind.RELATION, rv.snake(rel), name, end, ended, f"{name} is no longer {owner}'s {rel}")


def ended_relations(p: _Piece) -> None:
    """The speaker's relations said as over with no modifier the relation patterns read: "my former boss Finn",
    "my ex Sarah", "Finn is no longer my boss"."""
    text = p.piece.text
    for m in _FORMER_NAMED.finditer(text):
        if _is_name(m["name"]):
            past_relation(p, p.speaker, m["rel"] or "partner", m["name"], m.start(), m.end(), "former")
    for m in _NO_LONGER_MY.finditer(text):
        if _is_name(m["name"]) and (m["not"] is None or m["more"] is not None):
            past_relation(p, p.speaker, m["rel"], m["name"], m.start(), m.end(), "former")
