"""What a QA benchmark run records: one ``QAResult`` per question, and the ``QARun`` holding them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class QAResult:
    qid: str
    unit_id: str
    category: str  # LoCoMo: "1".."5"; LongMemEval: the question type
    question: str
    gold: str | None
    answer: str
    abstained: bool
    score: float  # the run's offline score: LoCoMo token F1, or LongMemEval's contained-match fallback
    evidence_tokens: int
    usd: float
    input_tokens: int
    output_tokens: int
    citations: int
    seconds: float
    citations_reread: int = 0  # citations whose quote is the stored turn's text at their span
    steps: int = 0
    flags: list[str] = field(default_factory=list)
    abstention_question: bool = False  # LongMemEval ``_abs`` (LoCoMo: category 5)
    judge_correct: bool | None = None  # None: not judged (no judge, a category the judge skips, or a judge error)
    judge_verdict: str = ""
    judge_error: str = ""
    judge_input_tokens: int = 0
    judge_output_tokens: int = 0
    judge_usd: float = 0.0
    baseline_answer: str | None = None  # the offline reader's answer, when the run also scored it
    baseline_score: float | None = None

    @property
    def answer_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def judge_tokens(self) -> int:
        return self.judge_input_tokens + self.judge_output_tokens


@dataclass(slots=True)
class QARun:
    dataset: str
    answerer: str
    embedder: str | None
    results: list[QAResult]
    seconds: float = 0.0
    notes: dict[str, Any] = field(default_factory=dict)
    score_name: str = "f1"  # what ``QAResult.score`` is
    category_names: dict[str, str] = field(default_factory=dict)  # category key -> name for reports
    overall_categories: tuple[str, ...] | None = None  # the categories of the overall figure (None: all)
    model: str | None = None  # the answering model (None: no LLM)
    judge: str | None = None  # the judge ("llm:<model>"), None when not judged
    endpoint: str = "none"

    def by_category(self) -> dict[str, list[QAResult]]:
        groups: dict[str, list[QAResult]] = {}
        for r in self.results:
            groups.setdefault(r.category, []).append(r)
        return dict(sorted(groups.items()))

    def overall_results(self) -> list[QAResult]:
        if self.overall_categories is None:
            return list(self.results)
        return [r for r in self.results if r.category in self.overall_categories]

    def summary(self) -> dict[str, Any]:
        from sodamem.bench.qa_report import summarise_qa

        return summarise_qa(self)

    def to_dict(self) -> dict[str, Any]:
        from sodamem.bench.qa_report import run_to_dict

        return run_to_dict(self)
