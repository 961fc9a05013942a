"""The main job on the embedded default: ingest the packaged example history offline and ask it questions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from sodamem.answer.offline import answer_offline
from sodamem.answer.types import Answer
from sodamem.memory import Memory
from sodamem.records import FactRecord, IngestReport, SearchHit


@dataclass(frozen=True, slots=True)
class DemoQuestion:
    question: str
    expected_turn_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DemoAnswer:
    question: DemoQuestion
    hits: list[SearchHit]
    answer: Answer  # the offline reader's, with its citations


@dataclass(frozen=True, slots=True)
class DemoChange:
    """A fact that holds now, with the older facts of its slot it replaced (oldest first)."""

    current: FactRecord
    replaced: list[FactRecord]


def example_history_path() -> Path:
    return Path(str(resources.files("sodamem").joinpath("examples/history.jsonl")))


def demo_questions() -> list[DemoQuestion]:
    raw = json.loads(resources.files("sodamem").joinpath("examples/questions.json").read_text("utf-8"))
    return [DemoQuestion(q["question"], tuple(q["expected_turn_ids"])) for q in raw]


def run_demo(memory: Memory, *, k: int = 3) -> tuple[IngestReport, list[DemoAnswer], list[DemoChange]]:
    report = memory.ingest(example_history_path())
    answers = [
        DemoAnswer(q, memory.search(q.question, k=k), answer_offline(memory, q.question)) for q in demo_questions()
    ]
    changes = []
    for fact in memory.facts():
        chain = memory.history(fact.id)
        replaced = [f for f in chain if f.id != fact.id and f.status == "superseded"]
        if replaced and any(f.object != fact.object or f.polarity != fact.polarity for f in replaced):
            changes.append(DemoChange(fact, replaced))
    return report, answers, changes
