"""Speaker focus: a question about a person is answered mostly by what that person said.

In a conversation between several people, "What did Caroline paint?" is answered by Caroline's own turns far more
often than by the others' (LoCoMo dev split: 1,278 of 1,323 evidence turns of questions naming one speaker were
said by that speaker). So turns said by a speaker the question names get a soft multiplicative bonus; like the
temporal bonus it scales evidence, never creates or drops it. A question that names every speaker, or none, is
left alone: the bonus would not tell turns apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_WORD = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
_POSSESSIVE = re.compile(r"[’']s$", re.IGNORECASE)
_PRONOUNS = frozenset("i me my mine we us our you your yours he him his she her hers they them their it".split())
# A question put to an assistant about its conversations with one person ("Where did I park?", "What did you
# suggest for dinner?") names the speakers by person: first person is the "user", second the "assistant".
_ROLE_WORDS = {
    "user": frozenset("i me my mine myself".split()),
    "assistant": frozenset("you your yours yourself".split()),
}


def is_role(speaker: str) -> bool:
    """The speaker is named like a role ("user", "assistant": LongMemEval's, an agent's own log), not a person."""
    return speaker.strip().casefold() in _ROLE_WORDS


def named_speakers(question: str, speakers: Iterable[str]) -> frozenset[str]:
    """The speakers whose name (any of its words, ignoring case) is a word of the question.

    Words of the question are compared with possessives folded ("Caroline's" names Caroline). Speakers named
    like roles ("user", "assistant") are matched the same way, so "what did the assistant suggest" focuses on the
    assistant's turns. Name words that are pronouns ("me", "you") never match: a speaker called "me" is not
    named by every question that says "me" (but "Will" and "Don" are names). Speakers called "user" and
    "assistant" (LongMemEval's roles, an agent's own log) are also named by first- and second-person words:
    "What did I say about my sister?" names the user; "What did you recommend?" the assistant.
    """
    words = {_POSSESSIVE.sub("", w).casefold() for w in _WORD.findall(question)}
    out = set()
    for speaker in speakers:
        parts = {p.casefold() for p in _WORD.findall(speaker)} - _PRONOUNS
        role = _ROLE_WORDS.get(speaker.strip().casefold(), frozenset())
        if (parts and parts & words) or role & words:
            out.add(speaker)
    return frozenset(out)


def speaker_bonus(speaker_of: Mapping[int, str], focus: frozenset[str], weight: float) -> dict[int, float]:
    """``weight`` for every unit said by a focused speaker, none otherwise; empty when the focus is not selective."""
    present = set(speaker_of.values())
    if weight <= 0 or not focus or present <= focus:
        return {}
    return {unit: weight for unit, speaker in speaker_of.items() if speaker in focus}


def combine_bonuses(*bonuses: Mapping[int, float]) -> dict[int, float]:
    """Multiplicative bonuses as one: factors (1 + b) multiply, so (1 + b1)(1 + b2) - 1."""
    out: dict[int, float] = {}
    for bonus in bonuses:
        for unit, b in bonus.items():
            out[unit] = (1.0 + out.get(unit, 0.0)) * (1.0 + b) - 1.0
    return out
