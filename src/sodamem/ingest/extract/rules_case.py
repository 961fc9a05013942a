"""A lower-case "i": people type "i work at Google now", "ok so i moved to Berlin", "i'm a nurse". The rules are
written for "I", so they read a copy of the session with that one letter upper-cased (the same length, so every
offset holds), and the quotes they make are taken back from the words as typed, which grounding checks. The same
copy capitalises the names of turns typed all in lower case (``rules_truecase.py``) and reads an emoji between
words as the comma it stands for.
"""

from __future__ import annotations

import re
from dataclasses import replace

from sodamem.ingest.extract.base import Extraction, SessionView
from sodamem.ingest.extract.rules_truecase import LOWER_I, names_found, true_cased, typed_lower


def capital_i(text: str) -> str:
    return LOWER_I.sub("I", text)


# an emoji between words, where people type a comma or a full stop: "we're back together 🙈 don't judge me" (not
# one joined to what follows: "I love 🍕 and pasta")
_EMOJI_BREAK = re.compile(
    r"(?<=\s)[\U0001F000-\U0001FAFF\u2600-\u27BF][\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F\u200D]*(?=\s+(?!(?:and|or|&|n)\s)|\s*$)"
)


# a word that wants what follows it: "allergic to 🥜 peanuts", "moved to 🇬🇧 London", "my 🐶 Rex"
_WANTS_MORE = re.compile(
    r"(?:\b(?:to|at|in|on|of|for|with|from|by|about|into|a|an|the|my|our|his|her|their|your|and|or|is|are|am|was"
    r"|were|be|love|loves|like|likes|hate|hates|got|have|has|had|'m|’m)|[,;:(])\s+\Z",
    re.IGNORECASE,
)


def _emoji_as_comma(text: str) -> str:
    """``text`` with each emoji between words read as a comma (padded with spaces: every offset holds), not after a
    word that wants what follows it."""

    def comma(m: re.Match[str]) -> str:
        if _WANTS_MORE.search(text, 0, m.start()):
            return m.group()
        return "," + " " * (len(m.group()) - 1)

    return _EMOJI_BREAK.sub(comma, text)


def with_capital_i(session: SessionView) -> SessionView:
    """The session as the rules read it: "I" for a lower-case "i", and the names of turns typed in lower case
    capitalised (itself where no turn needs either)."""
    lower = [typed_lower(turn.text) for turn in session.turns]
    names = {name for turn, low in zip(session.turns, lower, strict=True) if low for name in names_found(turn.text)}
    if not any(lower) and not any(LOWER_I.search(t.text) or _EMOJI_BREAK.search(t.text) for t in session.turns):
        return session

    def read(text: str, low: bool) -> str:
        return _emoji_as_comma(capital_i(true_cased(text, names) if low else text))

    turns = tuple(
        replace(turn, text=read(turn.text, low), pieces=tuple(replace(p, text=read(p.text, low)) for p in turn.pieces))
        for turn, low in zip(session.turns, lower, strict=True)
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
        when = fact.time_expression
        at = seen.find(when) if when else -1
        if when and at >= 0:  # the time words as typed too: "lAST WEEK" read as "LAST WEEK"
            fact = replace(fact, time_expression=said[at : at + len(when)])
        facts.append(fact)
    out.facts = facts
    return out
