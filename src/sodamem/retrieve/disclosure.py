"""Self-disclosure prior: what people say about themselves carries the facts about them.

In a conversation between peers, a turn said *to* the listener ("Wow, Caroline, that painting is awesome! What
gave you the idea?") or one that only asks something matches a question's topic as well as the turn that answers
it, but rarely is that turn. LoCoMo dev split, among the first 20 turns ranked for each question (categories 1-4):
of the evidence turns 3-13% say "you" more often than "I/we" and 0-2% only ask, against 21-25% and 8-10% of the
other turns. Such turns get a soft penalty (a negative multiplicative bonus): an equally matching self-report
outranks them, and nothing is dropped.

Turns of the roles ``user`` and ``assistant`` (LongMemEval's, an agent's own log) are left alone: an assistant's
"you" is about the user ("You mentioned your sister's wedding"), and a user's question to an assistant states
the user's need. Nothing here measures those logs, so the prior stays where it was measured.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sodamem.retrieve.speaker import is_role

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)*")
# Only the pronouns are found (one pass of one pattern): this runs on every candidate turn of every search.
_PERSON = re.compile(
    r"\b(?:(you(?:r|rs|rself|rselves|'re|'ve|'d|'ll)?|ya|y'all)|"
    r"(i(?:'m|'ve|'d|'ll)?|me|my|mine|myself|we(?:'re|'ve|'d|'ll)?|us|our|ours|ourselves))\b"
)
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
# A sentence of at most this many words ("Wow!", "Thanks so much.") states nothing that would keep a turn of
# questions from counting as one that only asks.
_FILLER_WORDS = 3


def addresses_listener(text: str) -> bool:
    """The turn speaks of the listener more than of the speaker: more second- than first-person words."""
    balance = 0
    for second, _ in _PERSON.findall(text.lower().replace("’", "'")):
        balance += 1 if second else -1
    return balance > 0


def only_asks(text: str) -> bool:
    """The turn asks something and states nothing beyond filler ("Wow! What gave you the idea?")."""
    if "?" not in text:
        return False
    sentences = (s.strip() for s in _SENTENCE.findall(text.lower().replace("’", "'")))
    return not any(not s.endswith("?") and len(_WORD.findall(s)) > _FILLER_WORDS for s in sentences)


def asks(text: str) -> bool:
    """The turn asks something (a sentence ending in a question mark), whatever else it says."""
    return "?" in text


def disclosure_bonus(
    turns: Mapping[int, tuple[str, bool, bool]], addressed_penalty: float, asking_penalty: float
) -> dict[int, float]:
    """Negative bonuses (``factor - 1``) for ``unit -> (speaker, addresses_listener, only_asks)``: ``x (1 -
    addressed_penalty)`` for a turn that addresses the listener, ``x (1 - asking_penalty)`` for one that only asks
    (both when both hold). Turns of the roles ``user`` and ``assistant`` are exempt."""
    out: dict[int, float] = {}
    for unit, (speaker, addresses, asks) in turns.items():
        factor = (1.0 - addressed_penalty if addresses else 1.0) * (1.0 - asking_penalty if asks else 1.0)
        if factor < 1.0 and not is_role(speaker):
            out[unit] = factor - 1.0
    return out
