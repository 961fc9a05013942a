"""What an answer is: the text, its citations (each a literal span of one turn), whether it abstained, and its cost."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

ABSTAIN_TEXT = "not in memory"
READ_FLAG = "read:"  # the flag prefix that names how the offline reader read an answer (``Reading``)


@dataclass(frozen=True, slots=True)
class AnswerCitation:
    """One cited source: ``quote == turn text[char_start:char_end]`` of the turn ``turn_id`` in ``session_id``."""

    id: str  # the evidence id the answer cites ("E3"; "F12" for a fact looked up outside the pack)
    session_id: str
    turn_index: int
    turn_id: str
    char_start: int
    char_end: int
    quote: str
    timestamp: str = ""  # ISO 8601: when the cited words were said


@dataclass(frozen=True, slots=True)
class Cost:
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float = 0.0


@dataclass(frozen=True, slots=True)
class Answer:
    question: str
    answer: str
    citations: tuple[AnswerCitation, ...] = ()
    abstained: bool = False
    steps: int = 0
    cost: Cost = field(default_factory=Cost)
    flags: tuple[str, ...] = ()  # "offline", "fallback:<reason>", ...
    evidence_tokens: int = 0  # tokens of the evidence the answer was read from (the pack), regex-words-v1
    # How the answer was reached, for people ("from 'yesterday', said 8 May 2023"); kept out of ``answer`` so the
    # answer itself stays short (LoCoMo's F1 halves for a correct date followed by its explanation).
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["citations"] = [asdict(c) for c in self.citations]
        data["flags"] = list(self.flags)
        return data


class Reading(StrEnum):
    """How an answer was read, where it was not cut from the sentence the search ranked best (flag
    ``read:<reading>``): from the stored facts (the asker's state slots, relatives, pets, medicines, pastimes; a
    person named by a relation; a named entity's fact whose predicate the question asks for), or a yes/no that the
    best sentence does not settle alone (a later sentence saying as much or ending it, its time passed since, a plan
    called off or never said done)."""

    STATE = "state"  # the asker's own ("Where do I live?"; subject "user")
    NAMED_STATE = "named_state"  # anyone else's: "Where does Joost work?", "Where does my brother live?"
    KIN = "kin"  # the asker's relatives by name ("What are my children's names?")
    NAMED_KIN = "named_kin"
    PETS = "pets"
    MEDICINES = "medicines"
    PASTIMES = "pastimes"
    RELATION = "relation"
    PREDICATE = "predicate"
    CHANGED = "changed"

    @property
    def flag(self) -> str:
        return f"{READ_FLAG}{self.value}"


def reading_of(answer: Answer) -> Reading | None:
    """The ``Reading`` an answer's ``read:<reading>`` flag names; None for an answer cut from a sentence."""
    return next((Reading(f.removeprefix(READ_FLAG)) for f in answer.flags if f.startswith(READ_FLAG)), None)
