"""What the rules extractor works on: a piece, a subject at the start of a clause, the clause with its aux chain,
its mood and its object; which capitalised words are names, and how a mention becomes a person ("my sister" ->
"Maya's sister"); where an object ends and which companions and places it names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sodamem.ingest.extract import rules_syntax as rs
from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.base import Extraction, TurnView
from sodamem.model import EntityRole, MessagePiece, Modality


@dataclass(frozen=True, slots=True)
class _Subject:
    name: str
    start: int  # offsets in the piece's text
    end: int
    companions: tuple[str, ...] = ()
    third: bool = False  # a third-person singular subject: "Priya", "my sister" (so "Priya like ..." is no clause)
    tentative: bool = False  # a capitalised word never seen mid-sentence: perhaps no name at all ("Change starts")
    dropped: bool = False  # left out, its verb a fragment's: "Based in Manchester, working as a nurse"


@dataclass(slots=True)
class _Piece:
    turn: TurnView
    piece: MessagePiece
    speaker: str
    times: list[tuple[int, int, str]]
    question: bool
    out: Extraction
    names: frozenset[str]
    seen: set[tuple[object, ...]] = field(default_factory=set)
    # offset of a resolved "he"/"she"/"they"/"his"/"her"/"their" in the piece's text -> the entity it stands for
    antecedents: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Clause:
    p: _Piece
    subj: _Subject
    aux: str
    text: str  # the piece's text as matched (a pro-drop piece has its first letter lower-cased)
    reported: bool = False
    conditional: bool = False

    @property
    def speaker(self) -> str:
        return self.p.speaker


@dataclass(frozen=True, slots=True)
class _Mood:
    modality: Modality
    polarity: bool
    note: str = ""  # "used_to", "no_longer", "past"


@dataclass(frozen=True, slots=True)
class _Obj:
    text: str  # the object, cleaned
    end: int  # where its clause ends (the quote's end)
    roles: tuple[EntityRole, ...] = ()


Handler = Callable[[_Clause, re.Match[str]], bool]


def _is_name(name: str) -> bool:
    return all(w.lower().replace("’", "'") not in rv.NAME_STOP for w in name.split())


def _person(mention: str, speaker: str) -> str:
    """``"my sister"`` -> ``"Maya's sister"``; a name stays a name."""
    m = re.match(rf"(?:[Mm]y|[Oo]ur)\s+{rv.REL_MOD}(?P<rel>{rv.REL})(?:\s+(?P<name>{rv.NAME}))?$", mention)
    if m is None:
        return mention
    if m["name"] and _is_name(m["name"]):
        return m["name"]
    return f"{speaker}'s {' '.join(m['rel'].lower().split())}"


def _object(c: _Clause, start: int, *, allow_list: bool = False, roles: bool = False, cut_time: bool = True) -> _Obj:
    text = c.text
    while start < len(text) and text[start].isspace():
        start += 1
    end = rs.clause_end(text, start, allow_list=allow_list)
    obj_end = end
    if cut_time:
        for t_start, _, _ in c.p.times:
            if start <= t_start < obj_end:
                obj_end = t_start
                break
    obj = rs.strip_tail(text[start:obj_end].strip())
    found: list[EntityRole] = []
    if roles:
        obj, found = _split_roles(obj, c.speaker)
    obj = re.sub(r"\b(?:[Mm]y|[Oo]ur)\s+(?=\w)", f"{c.speaker}'s ", obj)
    if obj.lower() in rs.FIRST_PERSON_OBJ:
        obj = c.speaker
    quote_end = len(text[:end].rstrip(" ,;:-–—"))
    return _Obj(obj, quote_end, tuple(found))


def _split_roles(obj: str, speaker: str) -> tuple[str, list[EntityRole]]:
    cut = len(obj)
    found: list[EntityRole] = []
    comp = rs.COMPANION.search(obj)
    if comp is not None:
        for mention in re.split(r",\s*|\s+and\s+", comp["comp"]):
            person = _person(mention.strip(), speaker)
            if person.startswith(f"{speaker}'s") or _is_name(person):
                found.append(EntityRole("companion", person))
        if found:
            cut = comp.start()
    loc = rs.LOCATION.search(obj)
    if loc is not None:
        place = re.sub(r"^the\s+", "", loc["loc"])
        if _is_name(re.sub(r"^The\s+", "", place)):
            found.append(EntityRole("location", place))
            cut = min(cut, loc.start())
    return obj[:cut].strip(), found


def _piece_clause(p: _Piece, start: int, end: int, subject: str) -> _Clause:
    text = p.piece.text
    return _Clause(p, _Subject(subject, start, end), "", text, reported=bool(rs.REPORTING_BEFORE.search(text[:start])))
