"""Relations said as over: "my former boss Finn", "my ex-boss Finn", "my ex Sarah", "my old roommate Carlos", "Finn
was my boss", "Finn is no longer my boss", "Finn isn't my manager anymore", "I broke up with my boyfriend Tom"; and
"my late husband Tom".

An ended relation is a denial in that relation's slot ("Finn is no longer user's boss"), so it ends "my boss Finn"
said before, and "Who is Finn?" reads "user's former boss". "Old" ends only a role one leaves ("my old friend" and
"my old dog" still are). "Late" says the person died: a denial said with its word ("user's late husband is Tom"),
which ends "my husband Tom" and names no husband now. "Was" is over unless said of one time or as still so ("Finn
was my coach today"); nothing is read as over from a clause under a wish, hearsay or a denial ("I wish Finn was my
coach", "Sarah told me Finn is no longer my boss").
"""

from __future__ import annotations

import re

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.rules_clause import _is_name, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_emit import _emit, _relation
from sodamem.ingest.extract.rules_patterns import NOT_A_COUPLE
from sodamem.model import FactKind, Modality
from sodamem.roles import COUPLE_WORDS, ENDING_WORDS

# roles one leaves, or that leave: "my old boss" was, "my old friend" still is
_ENDING_LOWER = frozenset(r.lower() for r in ENDING_WORDS)
_ROLE = rv.alt(ENDING_WORDS)
_MY = r"(?:[Mm]y|[Oo]ur)\s+"
# after "my ex Sarah": the end of the clause or a verb, not a noun ("my ex Uber driver", "my ex Tinder match")
_VERB_OR_END = (
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?:[a-z]+(?:ed|s)|and|but|is|was|has|had|just|still|finally|keeps|again|too|who|that"
    r"|at|in|on|from|to|for|with|last|yesterday|today|tonight)\b)"
)
# "my former boss Finn", "my ex-boyfriend called Tom", "my previous manager, Sarah"; "my ex Sarah", "my ex, Sarah,"
_FORMER_NAMED = re.compile(
    rf"\b{_MY}(?:(?:former|previous|ex)(?:\s+|\s*-\s*)(?P<rel>{_ROLE}),?\s+(?:(?:called|named)\s+)?"
    rf"(?P<name>{rv.NAME})(?![\w'’])|ex,?\s+(?P<partner>{rv.NAME}){_VERB_OR_END})"
)
# "Finn is no longer my boss", "Finn isn't my manager anymore", "Finn stopped being my coach"
_NO_LONGER_MY = re.compile(
    rf"(?<![\w'’])(?P<name>{rv.NAME})\s+(?:is\s+no\s+longer|(?P<not>isn['’]t|is\s+not)|(?:has\s+)?stopped\s+being)"
    rf"\s+{_MY}(?P<rel>{_ROLE})(?P<more>\s+any\s?more)?(?![\w'’])"
)
# right before "my boyfriend Tom", said by the speaker: the couple ended ("I broke up with", "I divorced"); not
# "I almost broke up with", "I got separated from", "Sarah broke up with"
_BROKE_UP_WITH = re.compile(
    r"\bI(?:['’]ve)?\s+(?:(?:just|finally|recently|officially|actually|have|had)\s+)*"
    r"(?:(?:broke|split)\s+up\s+with|divorced|separated\s+from|dumped)\s+$"
)
_PAST_MODIFIER = re.compile(r"\b(?P<word>old|late|former|previous|ex)[\s-]*$", re.IGNORECASE)
_WAS_MY = re.compile(rf"\bwas\s+{_MY}")
# "Finn was my coach for the session today", "was my boss at the time and he still is": of one time, or still so
_WAS_ONLY_THEN = re.compile(
    r"^[^.!?;]*?\b(?:today|tonight|this\s+(?:morning|afternoon|evening|week)|for\s+the\s+(?:day|night|evening|"
    r"session|game|match|quiz|race|project|weekend)|still)\b",
    re.IGNORECASE,
)
# a wish, a hope, hearsay, a guess or a denial before "Finn was my coach" / "Finn is no longer my boss"
NOT_SAID_AS_SO = re.compile(
    r"\b(?:wish|wished|hope|hoping|if|unless|told|tells|said|says|heard|think|thought|guess|maybe|never|not|"
    r"pretend\w*|imagine|whether|reckons?|according|apparently|supposedly)\b|n['’]t\b",
    re.IGNORECASE,
)


def _past_word(said: str, rel: str, after: str) -> str | None:
    """How a relation the relation patterns matched was said: "late" ("my late husband Tom": ``said`` is the text up
    to the relation word), "former" ("my old boss Finn", "Finn was my boss at Tesco": a role one leaves; ``after``
    follows the match), "then" ("Finn was my partner for the quiz", "was my coach today": neither held nor over), or
    None (it holds)."""
    modifier = _PAST_MODIFIER.search(said)
    if modifier is not None and modifier["word"].lower() == "late":
        return "late"
    if rel.lower() not in _ENDING_LOWER:
        return None
    if modifier is not None:
        return "former"
    if _WAS_MY.search(said) is None:
        return None
    return "then" if rel.lower() == "partner" or _WAS_ONLY_THEN.search(after) else "former"


def relation_said(p: _Piece, owner: str, m: re.Match[str]) -> None:
    """A relation a relation pattern matched (groups ``rel`` and ``name``): as holding ("my boss Finn"), as over
    ("my old boss Finn", "Finn was my boss at Tesco"), late ("my late husband Tom"), or of one time only, which says
    nothing ("Finn was my partner for the quiz")."""
    text = p.piece.text
    said = text[m.start() : m.start("rel")]
    word = _past_word(said, m["rel"], text[m.end() :])
    if word is None and _BROKE_UP_WITH.search(text[: m.start()]) and m["rel"].lower() in COUPLE_WORDS:
        # "I broke up with my boyfriend Tom": over, unless under a wish, a doubt or a denial ("if I divorced ..."),
        # or said of a day out ("I got separated from my husband Tom in the crowd")
        ended = not (NOT_SAID_AS_SO.search(text[: m.start()]) or NOT_A_COUPLE.search(text))
        word = "former" if ended else None
    if word is None:
        _relation(p, owner, m["rel"], m["name"], m.start(), m.end())
    elif word == "late":
        _late_relation(p, owner, m["rel"], m["name"], m.start(), m.end())
    elif word == "former":  # a clause ("Finn was my boss") may stand under a wish or hearsay; "my old boss" not
        _ended_relation(p, owner, m["rel"], m["name"], m.start(), m.end(), clause=_WAS_MY.search(said) is not None)


def _late_relation(p: _Piece, owner: str, rel: str, name: str, start: int, end: int) -> None:
    """ "my late husband Tom": the relation ended by a death, said with its word ("user's late husband is Tom"): a
    denial in its slot, so it ends "my husband Tom" and names no husband now."""
    if p.question:
        return
    rel = rv.role_said(rel)
    c = _piece_clause(p, start, end, owner)
    _emit(c, FactKind.RELATION, rv.snake(rel), name, end, _OVER, f"{owner}'s late {rel} is {name}")


def _ended_relation(p: _Piece, owner: str, rel: str, name: str, start: int, end: int, *, clause: bool) -> None:
    """The relation of ``owner`` to ``name`` said as over: a denial in its slot ("Finn is no longer user's boss");
    none from a question, nor, for a clause ("Finn was my boss", "Finn is no longer my boss"; not a noun phrase such
    as "my ex Tom"), from a wish, hearsay or a denial said before it in the piece ("I didn't say Finn was my boss")."""
    if p.question or (clause and NOT_SAID_AS_SO.search(p.piece.text[:start])):
        return
    rel = rv.role_said(rel)
    c = _piece_clause(p, start, end, owner)
    _emit(c, FactKind.RELATION, rv.snake(rel), name, end, _OVER, f"{name} is no longer {owner}'s {rel}")


_OVER = _Mood(Modality.ASSERTED, False, "no_longer")


def ended_relations(p: _Piece) -> None:
    """The speaker's relations said as over in words the relation patterns do not read: "my former boss Finn", "my
    ex Sarah", "Finn is no longer my boss"."""
    text = p.piece.text
    for m in _FORMER_NAMED.finditer(text):
        name = m["name"] or m["partner"]
        if _is_name(name):
            _ended_relation(p, p.speaker, m["rel"] or "partner", name, m.start(), m.end(), clause=False)
    for m in _NO_LONGER_MY.finditer(text):
        if _is_name(m["name"]) and (m["not"] is None or m["more"] is not None):
            _ended_relation(p, p.speaker, m["rel"], m["name"], m.start(), m.end(), clause=True)
