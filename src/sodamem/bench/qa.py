"""Question answering on LoCoMo with the official token-F1 scoring per category, and the cost of each answer.

One fresh memory per conversation (as the retrieval runner builds it); every question is answered with ``now`` =
the conversation's last session. Categories 1-4 make the overall figure; category 5 (adversarial) scores 1 when the
answer abstains: an abstained answer is scored as the text "Not mentioned in the conversation".
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sodamem.answer.offline import answer_offline
from sodamem.answer.types import Answer
from sodamem.bench.locomo import CATEGORY_NAMES, SCORED_CATEGORIES
from sodamem.bench.metrics import TOKENIZER_NAME, locomo_qa_score, mean
from sodamem.bench.runner import BenchUnit
from sodamem.embed.base import Embedder
from sodamem.memory import Memory

ABSTENTION_SCORING_TEXT = "Not mentioned in the conversation"
ANSWERERS = ("offline",)
_CATEGORY_NUMBERS = {name: number for number, name in CATEGORY_NAMES.items()}


@dataclass(slots=True)
class QAResult:
    qid: str
    unit_id: str
    category: int
    question: str
    gold: str | None
    answer: str
    abstained: bool
    score: float
    evidence_tokens: int
    usd: float
    input_tokens: int
    output_tokens: int
    citations: int
    seconds: float


@dataclass(slots=True)
class QARun:
    dataset: str
    answerer: str
    embedder: str | None
    results: list[QAResult]
    seconds: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)

    def by_category(self) -> dict[int, list[QAResult]]:
        groups: dict[int, list[QAResult]] = {}
        for r in self.results:
            groups.setdefault(r.category, []).append(r)
        return dict(sorted(groups.items()))

    def summary(self) -> dict[str, Any]:
        scored = [r for r in self.results if r.category in SCORED_CATEGORIES]
        tokens = [r.evidence_tokens for r in self.results]
        categories = {
            str(c): {"name": CATEGORY_NAMES.get(c, str(c)), "questions": len(rs), "f1": mean(r.score for r in rs)}
            for c, rs in self.by_category().items()
        }
        return {
            "questions": len(self.results),
            "overall_f1": mean(r.score for r in scored),
            "overall_questions": len(scored),
            "categories": categories,
            "abstention_rate": mean(float(r.abstained) for r in self.results),
            "abstention_rate_scored": mean(float(r.abstained) for r in scored),
            "mean_evidence_tokens": mean(tokens),
            "median_evidence_tokens": float(statistics.median(tokens)) if tokens else 0.0,
            "usd_per_question": mean(r.usd for r in self.results),
            "seconds": self.seconds,
            "tokenizer": TOKENIZER_NAME,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "answerer": self.answerer,
            "embedder": self.embedder,
            "summary": self.summary(),
            "notes": self.notes,
            "results": [asdict(r) for r in self.results],
        }


def category_number(category: str) -> int:
    """The LoCoMo category number of a bench question's category name (``"temporal"`` -> 2)."""
    if category in _CATEGORY_NUMBERS:
        return _CATEGORY_NUMBERS[category]
    return int(category)


def score_answer(answer: Answer, gold: str | None, category: int) -> float:
    prediction = ABSTENTION_SCORING_TEXT if answer.abstained else answer.answer
    if category == 5:
        return locomo_qa_score(prediction, "", 5)
    return locomo_qa_score(prediction, gold or "", category)


def run_locomo_qa(
    units: Sequence[BenchUnit],
    embedder: Embedder | str | None = None,
    answerer: str = "offline",
    *,
    budget_tokens: int = 1_000,
    progress: Callable[[int, int], None] | None = None,
) -> QARun:
    """Answer every question of every unit and score it; ``embedder`` as ``Memory`` takes it (None: lexical only)."""
    if answerer not in ANSWERERS:
        raise ValueError(f"unknown answerer {answerer!r}: {', '.join(ANSWERERS)}")
    started = time.perf_counter()
    results: list[QAResult] = []
    total = sum(len(u.questions) for u in units)
    name = embedder if isinstance(embedder, str) else (embedder.name if embedder is not None else None)
    for unit in units:
        with Memory(":memory:", embedder=embedder if embedder is not None else "none") as memory:
            memory.ingest(unit.sessions)
            last_session = max((s.timestamp for s in unit.sessions), default=None)
            for question in unit.questions:
                category = category_number(question.category)
                t0 = time.perf_counter()
                answer = answer_offline(
                    memory, question.question, now=question.asked_at or last_session, budget_tokens=budget_tokens
                )
                results.append(
                    QAResult(
                        qid=question.qid,
                        unit_id=unit.unit_id,
                        category=category,
                        question=question.question,
                        gold=question.answer,
                        answer=answer.answer,
                        abstained=answer.abstained,
                        score=score_answer(answer, question.answer, category),
                        evidence_tokens=answer.evidence_tokens,
                        usd=answer.cost.usd,
                        input_tokens=answer.cost.input_tokens,
                        output_tokens=answer.cost.output_tokens,
                        citations=len(answer.citations),
                        seconds=time.perf_counter() - t0,
                    )
                )
                if progress is not None:
                    progress(len(results), total)
    return QARun("LoCoMo", answerer, name, results, seconds=time.perf_counter() - started)


def render_qa_markdown(run: QARun) -> str:
    s = run.summary()
    lines = [
        f"## {run.dataset} QA — {run.answerer} reader (embedder: {run.embedder or 'none'})",
        "",
        "| category | questions | F1 |",
        "|---|---:|---:|",
    ]
    for number, data in s["categories"].items():
        note = " (abstention)" if number == "5" else ""
        lines.append(f"| {number} {data['name']}{note} | {data['questions']} | {data['f1']:.3f} |")
    lines.append(f"| **overall (1-4)** | {s['overall_questions']} | **{s['overall_f1']:.3f}** |")
    lines += [
        "",
        f"- abstention rate: {s['abstention_rate']:.1%} of all questions, {s['abstention_rate_scored']:.1%} of 1-4",
        f"- evidence tokens per question ({s['tokenizer']}): mean {s['mean_evidence_tokens']:.0f},"
        f" median {s['median_evidence_tokens']:.0f}",
        f"- $ per question: {s['usd_per_question']:.5f}",
        f"- run time: {s['seconds']:.1f} s for {s['questions']} questions",
        "",
    ]
    return "\n".join(lines)
