"""LoCoMo as a retrieval benchmark: conversations, their QA items, and the quirks counted on the way."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sodamem.bench.metrics import parse_evidence
from sodamem.bench.runner import BenchQuestion, BenchUnit
from sodamem.errors import InputError
from sodamem.ingest.formats.common import require_mapping, require_str
from sodamem.ingest.formats.locomo import parse_locomo_conversation

CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED_CATEGORIES = (1, 2, 3, 4)


@dataclass(slots=True)
class LocomoNotes:
    """What the loader met in the data: counted, never fatal."""

    conversations: int = 0
    questions: int = 0
    empty_evidence: int = 0
    malformed_evidence_tokens: int = 0
    unreachable_evidence_ids: int = 0
    questions_without_answer: int = 0
    by_category: dict[int, int] = field(default_factory=dict)


def load_locomo(path: str | Path) -> tuple[list[BenchUnit], LocomoNotes]:
    """One unit per conversation: its sessions and its questions (evidence = LoCoMo dia_ids)."""
    path = Path(path)
    try:
        data: Any = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read a LoCoMo file: {exc}", file=str(path)) from None
    if not isinstance(data, list):
        data = [data]
    notes = LocomoNotes()
    units = []
    for position, sample in enumerate(data):
        try:
            units.append(_unit(sample, position, notes))
        except InputError as exc:
            raise exc.with_file(str(path)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"malformed LoCoMo sample: {exc!r}", file=str(path), field=f"item {position}") from None
    return units, notes


def _unit(raw: Any, position: int, notes: LocomoNotes) -> BenchUnit:
    sample = require_mapping(raw, session=None, field=f"item {position}")
    sample_id = require_str(sample, "sample_id", session=None, field=f"item {position}: sample_id")
    sessions = list(parse_locomo_conversation(sample_id, sample.get("conversation")))
    session_of = {t.turn_id: s.session_id for s in sessions for t in s.turns}
    questions = []
    for index, qa in enumerate(sample.get("qa", [])):
        category = int(qa.get("category", 0))
        parsed = parse_evidence([str(e) for e in qa.get("evidence", [])])
        reachable = tuple(e for e in parsed.ids if e in session_of)
        notes.questions += 1
        notes.by_category[category] = notes.by_category.get(category, 0) + 1
        notes.malformed_evidence_tokens += len(parsed.malformed)
        notes.unreachable_evidence_ids += len(parsed.ids) - len(reachable)
        notes.empty_evidence += not parsed.ids
        answer = qa.get("answer")
        notes.questions_without_answer += answer is None
        questions.append(
            BenchQuestion(
                qid=f"{sample_id}#{index}",
                question=str(qa["question"]),
                category=CATEGORY_NAMES.get(category, str(category)),
                answer=None if answer is None else str(answer),
                relevant_turns=reachable,
                relevant_sessions=tuple(dict.fromkeys(session_of[e] for e in reachable)),
                scored=category in SCORED_CATEGORIES,
            )
        )
    notes.conversations += 1
    return BenchUnit(unit_id=sample_id, sessions=sessions, questions=questions)
