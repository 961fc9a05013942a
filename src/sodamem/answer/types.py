"""What an answer is: the text, its citations (each a literal span of one turn), whether it abstained, and its cost."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

ABSTAIN_TEXT = "not in memory"


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
