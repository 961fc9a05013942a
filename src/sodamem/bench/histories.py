"""Small assistant histories with keyword-checked questions (``sodamem bench histories``): the probes a helper
writes apart from the rules (reading no code), so a change is measured on phrasings it was not tuned on.

A file holds ``{"histories": [{"id", "turns": [{"when", "text"}], "questions": [{"qid", "question", "now", "kind",
"accept", "abstain"}]}]}``: each turn is one user message at its ISO time; ``accept`` is a list of alternatives, each
a list of lower-case keywords that must all be in the answer (a keyword of three letters or fewer as a whole word:
"ex" is not in "next"); ``abstain`` questions are right only when the reader abstains; a "yes_no" question is decided
by the first "yes" or "no" the answer says. Each history goes into a fresh in-memory store, one session per turn.
Reports say counts only, per kind, so a sealed probe stays sealed; the JSON keeps each answer for ``--against``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

from sodamem.embed.base import Embedder
from sodamem.errors import InputError
from sodamem.memory import Memory


@dataclass(frozen=True, slots=True)
class HistoryQuestion:
    qid: str
    question: str
    now: datetime
    kind: str
    accept: tuple[tuple[str, ...], ...]
    abstain: bool


@dataclass(frozen=True, slots=True)
class History:
    id: str
    turns: tuple[tuple[datetime, str], ...]
    questions: tuple[HistoryQuestion, ...]


@dataclass(frozen=True, slots=True)
class HistoryResult:
    qid: str
    kind: str
    answer: str
    abstained: bool
    correct: bool
    flags: list[str]
    citations: int
    seconds: float


def load_histories(path: Path) -> list[History]:
    """The histories of ``path``; ``InputError`` naming the file, history and field where one is malformed."""
    try:
        data: Any = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"not a readable JSON file: {exc}", file=str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("histories"), list) or not data["histories"]:
        raise InputError('expected {"histories": [...]} with at least one history', file=str(path))
    histories, qids = [], set()
    for n, raw in enumerate(data["histories"]):
        where = raw.get("id", f"#{n}") if isinstance(raw, dict) else f"#{n}"
        try:
            history = _history(raw)
        except KeyError as exc:
            raise InputError("missing", file=str(path), session=str(where), field=str(exc.args[0])) from None
        except (TypeError, ValueError) as exc:
            raise InputError(str(exc), file=str(path), session=str(where)) from None
        for q in history.questions:
            if q.qid in qids:
                raise InputError(f"question id {q.qid!r} is used twice", file=str(path), session=history.id)
            qids.add(q.qid)
        histories.append(history)
    return histories


def _history(raw: Any) -> History:
    if not isinstance(raw, dict):
        raise TypeError("a history is an object")
    turns = tuple((datetime.fromisoformat(str(t["when"])), _text(t["text"])) for t in raw["turns"])
    if not turns or any(later[0] < earlier[0] for earlier, later in pairwise(turns)):
        raise ValueError("turns must be given, oldest first")
    questions = tuple(_question(q) for q in raw["questions"])
    return History(str(raw["id"]), turns, questions)


def _question(raw: Any) -> HistoryQuestion:
    accept = tuple(tuple(str(k).lower() for k in alternative) for alternative in raw.get("accept", ()))
    abstain = bool(raw.get("abstain", False)) or raw.get("kind") == "abstain"
    if not abstain and not any(accept):
        raise ValueError(f"question {raw.get('qid')!r} accepts no answer and is no abstain question")
    now = datetime.fromisoformat(str(raw["now"]))
    return HistoryQuestion(str(raw["qid"]), _text(raw["question"]), now, str(raw["kind"]), accept, abstain)


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"expected text, got {value!r}")
    return value


def judged(question: HistoryQuestion, answer: str, abstained: bool) -> bool:
    """Whether ``answer`` (or the abstention) is right by the question's keywords (the module docstring's rule)."""
    if question.abstain:
        return abstained
    if abstained:
        return False
    said = answer.lower()
    if question.kind == "yes_no":
        first = re.search(r"(?<![a-z0-9])(yes|no)(?![a-z0-9])", said)
        return first is not None and (first.group(1),) in question.accept
    return any(alternative and all(_has(k, said) for k in alternative) for alternative in question.accept)


def _has(keyword: str, said: str) -> bool:
    if len(keyword) <= 3:
        return re.search(rf"(?<![a-z0-9]){re.escape(keyword)}(?![a-z0-9])", said) is not None
    return keyword in said


def run_histories(
    histories: Iterable[History],
    *,
    embedder: Embedder | str | None,
    offline: bool = True,
    budget_tokens: int = 500,
    max_steps: int = 0,
    progress: Callable[[int], None] | None = None,
) -> list[HistoryResult]:
    """Each history told to a fresh in-memory store, then each of its questions asked at its ``now``; offline, or
    through the configured LLM (``SODAMEM_LLM_*``) at ``budget_tokens`` of evidence and ``max_steps`` planner steps."""
    results: list[HistoryResult] = []
    for history in histories:
        with Memory(":memory:", embedder=embedder) as memory:
            for n, (when, text) in enumerate(history.turns):
                memory.add([{"role": "user", "text": text}], session_id=f"{history.id}-{n:02d}", timestamp=when)
            for q in history.questions:
                started = time.perf_counter()
                answer = memory.ask(
                    q.question, now=q.now, offline=offline, budget_tokens=budget_tokens, max_steps=max_steps
                )
                seconds = time.perf_counter() - started
                correct = judged(q, answer.answer, answer.abstained)
                cited = len(answer.citations)
                flags = list(answer.flags)
                results.append(
                    HistoryResult(q.qid, q.kind, answer.answer, answer.abstained, correct, flags, cited, seconds)
                )
                if progress is not None:
                    progress(1)
    return results


def per_kind(results: Iterable[HistoryResult]) -> dict[str, tuple[int, int]]:
    """(right, asked) per question kind, in the order kinds first appear, with "all" last."""
    counts: dict[str, tuple[int, int]] = {}
    for r in results:
        for key in (r.kind, "all"):
            right, asked = counts.get(key, (0, 0))
            counts[key] = (right + r.correct, asked + 1)
    return {k: v for k, v in counts.items() if k != "all"} | {"all": counts.get("all", (0, 0))}


def wins(before: Mapping[str, bool], after: Iterable[HistoryResult]) -> dict[str, tuple[int, int]]:
    """Per kind (and "all"): questions right now and wrong before, and the reverse, by question id."""
    counts: dict[str, tuple[int, int]] = {}
    for r in after:
        was = before.get(r.qid)
        if was is None or was == r.correct:
            continue
        for key in (r.kind, "all"):
            won, lost = counts.get(key, (0, 0))
            counts[key] = (won + r.correct, lost + (not r.correct))
    return {k: v for k, v in counts.items() if k != "all"} | ({"all": counts["all"]} if "all" in counts else {})


def results_json(results: list[HistoryResult], notes: Mapping[str, Any]) -> str:
    summary = {kind: {"right": right, "asked": asked} for kind, (right, asked) in per_kind(results).items()}
    return json.dumps({"notes": dict(notes), "summary": summary, "results": [asdict(r) for r in results]}, indent=1)


def correct_by_qid(path: Path) -> dict[str, bool]:
    """The right-or-wrong of each question of an earlier ``--json`` run."""
    try:
        data: Any = json.loads(path.read_text("utf-8"))
        return {str(r["qid"]): bool(r["correct"]) for r in data["results"]}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InputError(f"not a histories run's JSON: {exc}", file=str(path)) from None
