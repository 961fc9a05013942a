"""Judging answers: the LLM judges (LoCoMo, LongMemEval per question type) and the offline stand-in.

``LLMJudge(client)`` asks any ``JsonChatClient`` (a ``ChatClient``, a ``CachingChatClient``, the fake server's
client) and returns a ``Judgement`` with its own tokens and $ (counted apart from the answer's). A judge call that
fails (endpoint down, reply that never validated) gives ``correct=None`` and the error, never a verdict.

``contained_match`` is NOT a judge: the offline fallback a LongMemEval run is scored with when no LLM is at hand
(the normalised gold answer appears in the response; an abstention question is correct when the answer abstained).
Reports name it as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel

from sodamem.bench.metrics import contains_answer
from sodamem.llm.client import LLMError
from sodamem.llm.prices import PriceSpec, PriceTable, cost_usd
from sodamem.llm.prompts import judge_locomo, judge_longmemeval
from sodamem.llm.replay import JsonChatClient

CONTAINED_MATCH = "contained-match (offline fallback, not the LongMemEval judge)"


@dataclass(frozen=True, slots=True)
class Judgement:
    correct: bool | None  # None: the judge could not give a verdict (see ``error``)
    verdict: str = ""
    input_tokens: int = 0
    output_tokens: int = 0
    usd: float = 0.0
    error: str = ""


class LLMJudge:
    """An LLM judge over ``client``; ``prices`` as ``llm.prices.cost_usd`` takes them (default: list prices)."""

    def __init__(self, client: JsonChatClient, *, prices: Mapping[str, PriceSpec] | PriceTable | None = None) -> None:
        self.client = client
        self.prices = prices

    @property
    def name(self) -> str:
        return f"llm:{self.client.config.model}"

    def locomo(self, question: str, gold: str, response: str) -> Judgement:
        messages = judge_locomo.judge_locomo_messages(question, gold, response)
        return self._ask(messages, judge_locomo.LocomoJudgement, judge_locomo.SCHEMA_NAME)

    def longmemeval(self, question_type: str, question_id: str, question: str, answer: str, response: str) -> Judgement:
        abstention = judge_longmemeval.is_abstention(question_id)
        try:
            messages = judge_longmemeval.judge_longmemeval_messages(
                question_type, question, answer, response, abstention=abstention
            )
        except ValueError as exc:  # a question type LongMemEval's judge has no prompt for
            return Judgement(None, error=str(exc))
        return self._ask(messages, judge_longmemeval.LongMemEvalJudgement, judge_longmemeval.SCHEMA_NAME)

    def _ask(self, messages: Sequence[Mapping[str, str]], schema: type[BaseModel], name: str) -> Judgement:
        before = (self.client.usage.prompt_tokens, self.client.usage.completion_tokens)
        verdict = ""
        correct: bool | None = None
        error = ""
        try:
            value = self.client.complete_json(messages, schema, name=name).value
        except LLMError as exc:
            error = str(exc)
        else:
            if isinstance(value, judge_locomo.LocomoJudgement):
                verdict, correct = value.label, judge_locomo.judgement_is_correct(value)
            elif isinstance(value, judge_longmemeval.LongMemEvalJudgement):
                verdict, correct = value.verdict, judge_longmemeval.verdict_is_correct(value.verdict)
        input_tokens = self.client.usage.prompt_tokens - before[0]
        output_tokens = self.client.usage.completion_tokens - before[1]
        usd = cost_usd(self.client.config.model, input_tokens, output_tokens, prices=self.prices).usd
        return Judgement(correct, verdict, input_tokens, output_tokens, usd, error)


def contained_match(response: str, gold: str, *, abstention: bool, abstained: bool) -> float:
    """The offline fallback score (see the module docstring): 1.0 or 0.0."""
    if abstention:
        return float(abstained)
    if abstained:
        return 0.0
    return float(contains_answer(response, gold))
