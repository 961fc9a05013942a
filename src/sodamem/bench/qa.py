"""Question answering on LoCoMo with the official token-F1 scoring per category, an optional LLM judge, and the
cost of each answer (and of each judgement, apart).

One fresh memory per conversation (as the retrieval runner builds it); every question is answered with ``now`` =
the conversation's last session. Categories 1-4 make the overall figure; category 5 (adversarial) scores 1 when the
answer abstains: an abstained answer is scored as the text "Not mentioned in the conversation". The judge grades
categories 1-4 only (category 5 has no gold answer to grade against). Citation brackets (``[E3]``) are removed
from an answer before it is scored or judged.

``run_qa`` is the loop both benchmarks share (``bench/qa_longmemeval.py`` is the other one).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from sodamem.answer.types import Answer, AnswerCitation
from sodamem.bench.locomo import CATEGORY_NAMES, SCORED_CATEGORIES
from sodamem.bench.metrics import locomo_qa_score
from sodamem.bench.qa_judge import Judgement, LLMJudge
from sodamem.bench.qa_llm import AnswerFn, answer_fn
from sodamem.bench.qa_report import render_qa_markdown
from sodamem.bench.qa_types import QAResult, QARun
from sodamem.bench.runner import BenchQuestion, BenchUnit, each_question
from sodamem.embed.base import Embedder
from sodamem.errors import SodaMemError
from sodamem.memory import Memory

ABSTENTION_SCORING_TEXT = "Not mentioned in the conversation"
_CATEGORY_NUMBERS = {name: number for number, name in CATEGORY_NAMES.items()}
_CITATION = re.compile(r"\s*\[\s*E\d+(?:\s*[,;]\s*E\d+)*\s*\]")

ScoreFn = Callable[[BenchQuestion, Answer], float]
JudgeFn = Callable[[BenchQuestion, Answer], "Judgement | None"]

__all__ = ["ABSTENTION_SCORING_TEXT", "category_number", "render_qa_markdown", "run_locomo_qa", "run_qa"]


def category_number(category: str) -> int:
    """The LoCoMo category number of a bench question's category name (``"temporal"`` -> 2)."""
    if category in _CATEGORY_NUMBERS:
        return _CATEGORY_NUMBERS[category]
    return int(category)


def scoring_text(answer: Answer) -> str:
    """The text an answer is scored and judged as: without citation brackets; the abstention sentence if it
    abstained."""
    if answer.abstained:
        return ABSTENTION_SCORING_TEXT
    return " ".join(_CITATION.sub("", answer.answer).split())


def score_answer(answer: Answer, gold: str | None, category: int) -> float:
    prediction = scoring_text(answer)
    if category == 5:
        return locomo_qa_score(prediction, "", 5)
    return locomo_qa_score(prediction, gold or "", category)


def run_qa(
    units: Sequence[BenchUnit],
    *,
    dataset: str,
    answerer: str,
    answer: AnswerFn,
    score: ScoreFn,
    embedder: Embedder | str | None = None,
    judge: JudgeFn | None = None,
    baseline: AnswerFn | None = None,
    category_of: Callable[[BenchQuestion], str] = lambda q: q.category,
    abstention_of: Callable[[BenchQuestion], bool] = lambda q: False,
    progress: Callable[[int, int], None] | None = None,
) -> QARun:
    """Answer every question of every unit (a fresh memory per unit), score it, judge it, and time it."""
    started = time.perf_counter()
    results: list[QAResult] = []
    total = sum(len(u.questions) for u in units)
    name = embedder if isinstance(embedder, str) else (embedder.name if embedder is not None else None)
    for unit, memory, question, now in each_question(units, embedder):
        result = _one(memory, question, unit.unit_id, now, answer, score, judge, baseline)
        result.category = category_of(question)
        result.abstention_question = abstention_of(question)
        results.append(result)
        if progress is not None:
            progress(len(results), total)
    return QARun(dataset, answerer, name, results, seconds=time.perf_counter() - started)


def _one(
    memory: Memory,
    question: BenchQuestion,
    unit_id: str,
    now: datetime | None,
    answer_fn_: AnswerFn,
    score: ScoreFn,
    judge: JudgeFn | None,
    baseline: AnswerFn | None,
) -> QAResult:
    t0 = time.perf_counter()
    answer = answer_fn_(memory, question.question, now)
    seconds = time.perf_counter() - t0
    result = QAResult(
        qid=question.qid,
        unit_id=unit_id,
        category=question.category,
        question=question.question,
        gold=question.answer,
        answer=answer.answer,
        abstained=answer.abstained,
        score=score(question, answer),
        evidence_tokens=answer.evidence_tokens,
        usd=answer.cost.usd,
        input_tokens=answer.cost.input_tokens,
        output_tokens=answer.cost.output_tokens,
        citations=len(answer.citations),
        citations_reread=sum(_rereads(memory, c) for c in answer.citations),
        seconds=seconds,
        steps=answer.steps,
        flags=list(answer.flags),
    )
    if judge is not None:
        judgement = judge(question, answer)
        if judgement is not None:
            result.judge_correct = judgement.correct
            result.judge_verdict = judgement.verdict
            result.judge_error = judgement.error
            result.judge_input_tokens = judgement.input_tokens
            result.judge_output_tokens = judgement.output_tokens
            result.judge_usd = judgement.usd
    if baseline is not None:
        offline = baseline(memory, question.question, now)
        result.baseline_answer = offline.answer
        result.baseline_score = score(question, offline)
    return result


def _rereads(memory: Memory, citation: AnswerCitation) -> bool:
    """The citation's quote is what the stored turn says at its span (checked on the memory, not the pack)."""
    try:
        text = memory.turn(citation.turn_id, session_id=citation.session_id).text
    except SodaMemError:
        return False
    return text[citation.char_start : citation.char_end] == citation.quote


def run_locomo_qa(
    units: Sequence[BenchUnit],
    embedder: Embedder | str | None = None,
    answerer: str = "offline",
    *,
    answer: AnswerFn | None = None,
    judge: LLMJudge | None = None,
    baseline: AnswerFn | None = None,
    budget_tokens: int = 1_000,
    progress: Callable[[int, int], None] | None = None,
) -> QARun:
    """LoCoMo QA: official F1 per category, the judge's verdict on categories 1-4 when ``judge`` is given.

    ``answer``: how to answer (default: the offline reader with ``budget_tokens``); ``baseline``: also answer with
    this (the offline reader) and score it, for a run that compares an LLM with the offline figure.
    """
    answer = answer or answer_fn("offline", None, budget_tokens=budget_tokens, max_steps=0)

    def score(question: BenchQuestion, given: Answer) -> float:
        return score_answer(given, question.answer, category_number(question.category))

    def judge_one(question: BenchQuestion, given: Answer) -> Judgement | None:
        if judge is None or category_number(question.category) not in SCORED_CATEGORIES:
            return None
        return judge.locomo(question.question, question.answer or "", scoring_text(given))

    run = run_qa(
        units,
        dataset="LoCoMo",
        answerer=answerer,
        answer=answer,
        score=score,
        embedder=embedder,
        judge=judge_one if judge is not None else None,
        baseline=baseline,
        category_of=lambda q: str(category_number(q.category)),
        abstention_of=lambda q: category_number(q.category) == 5,
        progress=progress,
    )
    run.score_name = "f1"
    run.category_names = {str(number): name for number, name in CATEGORY_NAMES.items()}
    run.overall_categories = tuple(str(c) for c in SCORED_CATEGORIES)
    run.judge = judge.name if judge is not None else None
    return run
