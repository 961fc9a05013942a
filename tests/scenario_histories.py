"""Small assistant histories told message by message, and the check every scenario question gets: the expected
answer (or an abstention), with every citation re-reading its turn. Shared by the scenario test files."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from sodamem import Memory
from sodamem.answer.types import Answer

ABSTAIN = None  # the expected answer where the history does not hold one
History = list[tuple[str, str]]  # (when said, ISO; what the user said)


def remembered(history: History) -> Memory:
    memory = Memory(":memory:", embedder="fake")  # dense hits for any question, as a real embedder gives
    for when, text in history:
        said = datetime.fromisoformat(when)
        memory.add([{"role": "user", "text": text}], session_id=f"s{said:%Y%m%d}", timestamp=said)
    return memory


def made_memories() -> Iterator[dict[int, Memory]]:
    """A module fixture's body: one memory per history, closed at the end."""
    made: dict[int, Memory] = {}
    yield made
    for memory in made.values():
        memory.close()


def answered(memories: dict[int, Memory], history: History, now: str, question: str) -> tuple[Memory, Answer]:
    memory = memories.get(id(history)) or memories.setdefault(id(history), remembered(history))
    return memory, memory.ask(question, now=datetime.fromisoformat(now), offline=True)


def check_answer(memory: Memory, answer: Answer, expected: str | None) -> None:
    if expected is ABSTAIN:
        assert answer.abstained, (answer.answer, answer.detail)
        return
    assert not answer.abstained and answer.answer == expected, (answer.answer, answer.flags, answer.detail)
    assert answer.citations
    for citation in answer.citations:
        turn = memory.turn(citation.turn_id, session_id=citation.session_id)
        assert turn.text[citation.char_start : citation.char_end] == citation.quote
