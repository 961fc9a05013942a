"""Turning a clause into output: a candidate fact (its quote, roles and time expression), an alias hint, and a
relation ("Maya's sister is Priya") with its alias.
"""

from __future__ import annotations

from dataclasses import replace

from sodamem.ingest.extract import rules_vocabulary as rv
from sodamem.ingest.extract.base import AliasHint, CandidateFact
from sodamem.ingest.extract.rules_clause import _Clause, _Mood, _Piece, _piece_clause
from sodamem.ingest.extract.rules_modality import _piece_mood
from sodamem.model import EntityRole, FactKind, Modality

K, M = FactKind, Modality


def _emit(
    c: _Clause,
    kind: FactKind,
    predicate: str,
    obj: str | None,
    end: int,
    mood: _Mood,
    text: str,
    *,
    roles: tuple[EntityRole, ...] = (),
    subject: str | None = None,
    time_expression: str | None = None,
) -> bool:
    """Add the fact the clause says, quoted from its subject to ``end``; its time words are those inside the quote
    (for events and plans, else the nearest in the piece), or ``time_expression`` where the caller read them."""
    p = c.p
    said = p.piece.text[c.subj.start : end]
    begin = c.subj.start + len(said) - len(said.lstrip())  # a subject left out ("... and work as"): from the verb
    quote = said.strip()
    if not quote.strip():
        return False
    if mood.modality is M.PLANNED:
        kind = K.PLAN
    subject = subject or c.subj.name
    companions = tuple(EntityRole("companion", name) for name in c.subj.companions)
    all_roles = tuple(dict.fromkeys(companions + roles))
    time_expression = time_expression or _time_for(p, begin, end, nearby=kind in (K.EVENT, K.PLAN))
    fact = CandidateFact(
        kind=kind,
        predicate=predicate,
        subject=subject,
        turn_index=p.turn.index,
        quote=quote,
        object=obj,
        modality=mood.modality,
        polarity=mood.polarity,
        roles=all_roles,
        char_start=p.piece.char_start + begin,
        time_expression=time_expression,
        text=text,
    )
    _append(p, fact)
    if kind in _SHARED_KINDS and subject == c.subj.name and text.startswith(subject + " "):
        # "Alex and I both work at Google": the state is Alex's too, quoted from the same words
        for name in c.subj.companions:
            shared_roles = (*(r for r in all_roles if r.entity != name), EntityRole("companion", subject))
            said_of = replace(fact, subject=name, roles=shared_roles, text=name + text[len(subject) :])
            _append(p, said_of)
    return True


# what a pair subject ("Tom and I") says of both; an event already names the companion as a role
_SHARED_KINDS = frozenset({K.STATE, K.ATTRIBUTE, K.PREFERENCE})


def _append(p: _Piece, fact: CandidateFact) -> None:
    said = (fact.kind, fact.predicate, fact.subject, (fact.object or "").lower(), fact.modality, fact.polarity)
    key = (fact.turn_index, *said)
    if key not in p.seen:
        p.seen.add(key)
        p.out.facts.append(fact)


def _time_for(p: _Piece, start: int, end: int, *, nearby: bool) -> str | None:
    """The time words inside the quote; for events and plans, else the nearest ones in the piece."""
    inside = [t for t in p.times if start <= t[0] < end]
    if inside:
        return inside[0][2]
    if not nearby or not p.times:
        return None
    return min(p.times, key=lambda t: min(abs(t[0] - end), abs(t[1] - start)))[2]


def _alias(p: _Piece, alias: str, canonical: str) -> None:
    hint = AliasHint(alias=alias, canonical=canonical, turn_index=p.turn.index)
    if hint not in p.out.aliases and alias != canonical:
        p.out.aliases.append(hint)


def _relation(p: _Piece, owner: str, rel: str, name: str, start: int, end: int, *, alias: bool = True) -> None:
    rel = rv.role_said(rel)
    c = _piece_clause(p, start, end, owner)
    _emit(c, K.RELATION, rv.snake(rel), name, end, _piece_mood(p), f"{owner}'s {rel} is {name}")
    if alias and rel not in rv.NON_UNIQUE_RELS and not p.question:
        _alias(p, f"{owner}'s {rel}", name)
