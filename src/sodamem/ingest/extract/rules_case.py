"""A lower-case "i": people type "i work at Google now", "ok so i moved to Berlin", "i'm a nurse". The rules are
written for "I", so they read a copy of the session with that one letter upper-cased (the same length, so every
offset holds), and the quotes they make are taken back from the words as typed, which grounding checks.
"""

from __future__ import annotations

import re
from dataclasses import replace

from sodamem.ingest.extract.base import Extraction, SessionView

# "i", "i'm", "i've", "i'd", "i'll" on their own; not "i.e.", "Wi-Fi", "pi", nor a list's "(i)"
_LOWER_I = re.compile(r"(?<![\w'’.(-])i(?=['’](?:m|ve|d|ll)\b|(?![\w'’.)-]))")


def capital_i(text: str) -> str:
    return _LOWER_I.sub("I", text)


def with_capital_i(session: SessionView) -> SessionView:
    """The session as the rules read it (itself where no turn types a lower-case "i")."""
    if not any(_LOWER_I.search(turn.text) for turn in session.turns):
        return session
    turns = tuple(
        replace(turn, text=capital_i(turn.text), pieces=tuple(replace(p, text=capital_i(p.text)) for p in turn.pieces))
        for turn in session.turns
    )
    return replace(session, turns=turns)


def as_typed(out: Extraction, read: SessionView, typed: SessionView) -> Extraction:
    """``out``, made from ``read`` (``with_capital_i(typed)``), with each quote as ``typed`` says it."""
    if read is typed:
        return out
    texts = {turn.index: turn.text for turn in typed.turns}
    read_texts = {turn.index: turn.text for turn in read.turns}
    facts = []
    for fact in out.facts:
        said, seen = texts.get(fact.turn_index, ""), read_texts.get(fact.turn_index, "")
        start = fact.char_start if fact.char_start is not None else seen.find(fact.quote)
        if start is not None and start >= 0 and seen[start : start + len(fact.quote)] == fact.quote:
            fact = replace(fact, quote=said[start : start + len(fact.quote)])
        facts.append(fact)
    out.facts = facts
    return out
