"""The words that name who a pronoun fact is about, cited beside the fact.

A fact the rules extractor read through a pronoun ("My aunt is great. She works as a nurse.": the user's aunt works
as a nurse) has one source, the words with the predicate ("She works as a nurse"); a fact holds one quote. The
words naming the aunt are found again at read time: the same resolver (``rules_coref.resolve_pronouns``) runs over
the fact's session up to its turn, and when the fact's quote starts at a pronoun it resolved, the antecedent's
words ("My aunt", "My brother Tom") are cited too -- when the antecedent is the fact's subject (or the subject's
owner: "his sister"), since another extractor may have read the pronoun otherwise -- as a literal span of its turn,
under the fact's id.
"""

from __future__ import annotations

from datetime import datetime

from sodamem.answer.types import AnswerCitation
from sodamem.ingest.entities import entity_key, possessive_owner
from sodamem.ingest.extract.base import SessionView, TurnView
from sodamem.ingest.extract.rules_coref import resolve_pronouns
from sodamem.memory import Memory
from sodamem.model import MessagePiece
from sodamem.records import FactRecord, SessionRecord, TurnRecord


def antecedent_citation(memory: Memory, user: str, fact: FactRecord) -> AnswerCitation | None:
    """The span naming the person ``fact``'s quote refers to by a pronoun, or None (no pronoun, or unresolved)."""
    if not fact.sources:
        return None
    source = fact.sources[0]
    record = memory.session(source.session_id, user=user)
    turns = {t.turn_index: t for t in record.turns}
    turn = turns.get(source.turn_index)
    if turn is None:
        return None
    piece = next((p for p in turn.pieces if p.char_start <= source.char_start < p.char_end), None)
    if piece is None:
        return None
    resolved = resolve_pronouns(_view(record), source.turn_index + 1)
    antecedent = resolved.get((turn.turn_index, piece.index), {}).get(source.char_start - piece.char_start)
    if antecedent is None or not _about(memory, user, fact.subject, antecedent.entity):
        return None
    named = turns[antecedent.turn_index]
    start = next(p.char_start for p in named.pieces if p.index == antecedent.piece_index)
    begin, end = start + antecedent.start, start + antecedent.end
    return AnswerCitation(
        f"F{fact.id}",
        record.session_id,
        named.turn_index,
        named.turn_id,
        begin,
        end,
        named.text[begin:end],
        named.timestamp,
    )


def _about(memory: Memory, user: str, subject: str, entity: str) -> bool:
    """Whether the fact's subject is the antecedent, or theirs ("Tom's sister" for "his sister"): the fact may come
    from another extractor that read the pronoun otherwise."""
    owner = possessive_owner(subject)
    keys = {entity_key(k) for k in (subject, entity, owner) if k}
    pks = memory.store.entity_pks_by_key(user, keys)
    target = pks.get(entity_key(entity))
    return target is not None and target in (pks.get(entity_key(subject)), pks.get(entity_key(owner or "")))


def _view(record: SessionRecord) -> SessionView:
    turns = tuple(_turn_view(t) for t in record.turns)
    when = datetime.fromisoformat(record.timestamp)
    return SessionView(record.session_id, when, turns, tuple(dict.fromkeys(t.speaker for t in turns)))


def _turn_view(turn: TurnRecord) -> TurnView:
    pieces = tuple(MessagePiece(p.index, p.char_start, p.char_end, p.text) for p in turn.pieces)
    return TurnView(turn.turn_index, turn.turn_id, turn.speaker, turn.text, pieces)
