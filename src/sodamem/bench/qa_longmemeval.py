"""Question answering on LongMemEval, judged by LongMemEval's judge (one prompt per question type) when an LLM is at
hand, and otherwise scored by an offline stand-in that is named as such (``contained-match``).

Unlike the retrieval benchmark, the memory holds every turn of the haystack, the assistant's too (the
single-session-assistant questions ask about them), with LongMemEval's turn ids; each question is asked at its
``question_date``. One fresh memory per question. Accuracy is reported per question type, overall, averaged over
the types (LongMemEval's "task-averaged"), and for the abstention questions (``_abs``) apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sodamem.answer.types import Answer
from sodamem.bench.longmemeval import read_question_list
from sodamem.bench.qa import run_qa, scoring_text
from sodamem.bench.qa_judge import CONTAINED_MATCH, Judgement, LLMJudge, contained_match
from sodamem.bench.qa_llm import AnswerFn
from sodamem.bench.qa_types import QARun
from sodamem.bench.runner import BenchQuestion, BenchUnit
from sodamem.embed.base import Embedder
from sodamem.errors import InputError
from sodamem.ingest.formats.longmemeval import parse_longmemeval_question
from sodamem.ingest.timestamps import parse_longmemeval
from sodamem.llm.prompts.judge_longmemeval import is_abstention

# What an abstaining answer is shown to the judge as (the answer itself is the bare marker "not in memory").
ABSTENTION_REPLY = "I cannot answer that: it is not in the conversation history."


@dataclass(slots=True)
class LongMemEvalQANotes:
    questions: int = 0
    abstention: int = 0
    by_type: dict[str, int] = field(default_factory=dict)


def load_longmemeval_qa(path: str | Path) -> tuple[list[BenchUnit], LongMemEvalQANotes]:
    """One unit per question: its whole haystack (user and assistant turns) and the question, asked at its date."""
    path = Path(path)
    data = read_question_list(path)
    notes = LongMemEvalQANotes()
    units = []
    for position, item in enumerate(data):
        try:
            sessions = list(parse_longmemeval_question(item, position))
            qid = str(item["question_id"])
            qtype = str(item.get("question_type", "unknown"))
            asked = item.get("question_date")
            question = BenchQuestion(
                qid=qid,
                question=str(item["question"]),
                category=qtype,
                answer=str(item.get("answer", "")),
                relevant_turns=(),
                relevant_sessions=tuple(str(s) for s in item.get("answer_session_ids", [])),
                asked_at=parse_longmemeval(asked) if isinstance(asked, str) and asked else None,
            )
        except InputError as exc:
            raise exc.with_file(str(path)) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"malformed question: {exc!r}", file=str(path), field=f"item {position}") from None
        notes.questions += 1
        notes.abstention += is_abstention(qid)
        notes.by_type[qtype] = notes.by_type.get(qtype, 0) + 1
        units.append(BenchUnit(unit_id=qid, sessions=sessions, questions=[question]))
    return units, notes


def judge_text(answer: Answer) -> str:
    """What the judge reads: the answer without citation brackets, or a sentence saying it cannot answer."""
    return ABSTENTION_REPLY if answer.abstained else scoring_text(answer)


def run_longmemeval_qa(
    units: Sequence[BenchUnit],
    embedder: Embedder | str | None = None,
    answerer: str = "offline",
    *,
    answer: AnswerFn,
    judge: LLMJudge | None = None,
    baseline: AnswerFn | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> QARun:
    """LongMemEval QA: ``contained-match`` always (named as the offline fallback), the judge when ``judge``."""

    def score(question: BenchQuestion, given: Answer) -> float:
        abstention = is_abstention(question.qid)
        return contained_match(
            scoring_text(given), question.answer or "", abstention=abstention, abstained=given.abstained
        )

    def judge_one(question: BenchQuestion, given: Answer) -> Judgement | None:
        if judge is None:
            return None
        return judge.longmemeval(
            question.category, question.qid, question.question, question.answer or "", judge_text(given)
        )

    run = run_qa(
        units,
        dataset="LongMemEval",
        answerer=answerer,
        answer=answer,
        score=score,
        embedder=embedder,
        judge=judge_one if judge is not None else None,
        baseline=baseline,
        abstention_of=lambda q: is_abstention(q.qid),
        progress=progress,
    )
    run.score_name = "match"
    run.judge = judge.name if judge is not None else None
    run.notes["score"] = CONTAINED_MATCH
    return run
