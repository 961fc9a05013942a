"""Specificity: list questions are answered by turns that name particular things.

"What video games does Nate play?" is answered by "I usually play CS:GO" and "a fantasy RPG called 'Xenoblade
Chronicles'", not by "Playing video games is my main hobby", though the latter matches the question better. Classic
factoid QA boosts passages holding an answer of the expected type; without a tagger, a cheap stand-in for "holds a
particular item" is a capitalised word inside a sentence (a name or title), a quoted phrase, or a number. The
speakers' own names, "I" and sentence-initial words do not count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+|[\"“(]\s*)$")
_WORD = re.compile(r"[A-Za-z][\w'’:-]*")
_QUOTED = re.compile(r"[\"“][^\"”]{2,60}[\"”]")
_NUMBER = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_COMMON = frozenset(
    "I I'm I've I'd I'll OK Ok Hey Hi Hello Wow Thanks Thank Yeah Yes No Oh Mr Mrs Ms Dr".split()
)


def specific_terms(text: str, speakers: Iterable[str] = ()) -> int:
    """How many particular items ``text`` names: inner capitalised words, quoted phrases and numbers."""
    skip = {w.casefold() for s in speakers for w in _WORD.findall(s)}
    count = len(_QUOTED.findall(text)) + len(_NUMBER.findall(text))
    for match in _WORD.finditer(text):
        word = match.group()
        if not word[0].isupper() or word in _COMMON or word.casefold().rstrip("'’s") in skip:
            continue
        if _SENTENCE_START.search(text[: match.start()]):
            continue
        count += 1
    return count


def specific_bonus(texts: Mapping[int, str], speakers: Iterable[str], weight: float) -> dict[int, float]:
    """``weight`` for every unit whose text names a particular item."""
    if weight <= 0:
        return {}
    names = tuple(speakers)
    return {unit: weight for unit, text in texts.items() if specific_terms(text, names) > 0}
