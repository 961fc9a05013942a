"""LongMemEval as a retrieval benchmark, with its own definitions (src/retrieval/eval_utils.py).

Only user turns are indexed. Turn granularity: documents are user turns, id ``<session_id>_<turn index + 1>``
(the index counts every turn of the session). Session granularity: one document per session, its user turns
joined. Relevant: answer sessions holding a ``has_answer`` user turn (and, per turn, those turns). Abstention
questions (``_abs`` in the id) and questions with no ``has_answer`` user turn are left unscored and counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sodamem.bench.runner import BenchQuestion, BenchUnit
from sodamem.errors import InputError
from sodamem.ingest.formats.longmemeval import parse_longmemeval_question
from sodamem.ingest.timestamps import parse_longmemeval
from sodamem.model import Session, Turn

Granularity = Literal["session", "turn"]
KS = (1, 3, 5, 10, 30, 50)


@dataclass(slots=True)
class LongMemEvalNotes:
    questions: int = 0
    abstention: int = 0
    without_evidence: int = 0


def read_question_list(path: Path) -> list[Any]:
    """The JSON list of questions a LongMemEval file holds, or an ``InputError`` naming the file."""
    try:
        data: Any = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"cannot read a LongMemEval file: {exc}", file=str(path)) from None
    if not isinstance(data, list):
        raise InputError("expected a JSON list of LongMemEval questions", file=str(path))
    return data


def load_longmemeval(
    path: str | Path, granularity: Granularity = "session"
) -> tuple[list[BenchUnit], LongMemEvalNotes]:
    path = Path(path)
    data = read_question_list(path)
    notes = LongMemEvalNotes()
    units = []
    for position, item in enumerate(data):
        try:
            list(parse_longmemeval_question(item, position))  # the importer's checks, with field names
            units.append(_unit(item, granularity, notes))
        except InputError as exc:
            raise exc.with_file(str(path)) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"malformed question: {exc!r}", file=str(path), field=f"item {position}") from None
    return units, notes


def _unit(item: dict[str, Any], granularity: Granularity, notes: LongMemEvalNotes) -> BenchUnit:
    qid = str(item["question_id"])
    answer_sessions = set(item.get("answer_session_ids", []))
    sessions: list[Session] = []
    relevant_turns: list[str] = []
    relevant_sessions: list[str] = []
    for session_id, date, turns in zip(
        item["haystack_session_ids"], item["haystack_dates"], item["haystack_sessions"], strict=True
    ):
        user_turns = [(i, t) for i, t in enumerate(turns) if t.get("role") == "user"]
        if not user_turns:
            continue
        evidence = [
            f"{session_id}_{i + 1}" for i, t in user_turns if t.get("has_answer") and session_id in answer_sessions
        ]
        if evidence:
            relevant_sessions.append(session_id)
            relevant_turns.extend(evidence)
        sessions.append(_session(session_id, parse_longmemeval(date), user_turns, granularity))
    abstention = "_abs" in qid
    notes.questions += 1
    notes.abstention += abstention
    notes.without_evidence += not abstention and not relevant_sessions
    question = BenchQuestion(
        qid=qid,
        question=str(item["question"]),
        category=str(item.get("question_type", "unknown")),
        answer=None if abstention else str(item.get("answer", "")),
        relevant_turns=tuple(relevant_sessions if granularity == "session" else relevant_turns),
        relevant_sessions=tuple(relevant_sessions),
        scored=not abstention and bool(relevant_sessions),
    )
    return BenchUnit(unit_id=qid, sessions=sessions, questions=[question])


def _session(
    session_id: str, when: Any, user_turns: list[tuple[int, dict[str, Any]]], granularity: Granularity
) -> Session:
    if granularity == "session":
        text = " ".join(str(t.get("content", "")) for _, t in user_turns)
        turns: tuple[Turn, ...] = (Turn(index=0, speaker="user", text=text, turn_id=session_id),)
    else:
        turns = tuple(
            Turn(index=n, speaker="user", text=str(t.get("content", "")), turn_id=f"{session_id}_{i + 1}")
            for n, (i, t) in enumerate(user_turns)
        )
    return Session(session_id=session_id, timestamp=when, turns=turns, source="longmemeval")
