"""The main job on the embedded default: ingest the packaged example history offline and ask it questions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from sodamem.memory import Memory
from sodamem.records import IngestReport, SearchHit


@dataclass(frozen=True, slots=True)
class DemoQuestion:
    question: str
    expected_turn_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DemoAnswer:
    question: DemoQuestion
    hits: list[SearchHit]


def example_history_path() -> Path:
    return Path(str(resources.files("sodamem").joinpath("examples/history.jsonl")))


def demo_questions() -> list[DemoQuestion]:
    raw = json.loads(resources.files("sodamem").joinpath("examples/questions.json").read_text("utf-8"))
    return [DemoQuestion(q["question"], tuple(q["expected_turn_ids"])) for q in raw]


def run_demo(memory: Memory, *, k: int = 3) -> tuple[IngestReport, list[DemoAnswer]]:
    report = memory.ingest(example_history_path())
    answers = [DemoAnswer(q, memory.search(q.question, k=k)) for q in demo_questions()]
    return report, answers
