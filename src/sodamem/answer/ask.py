"""Answer a question the way every adapter does: through the configured LLM, else (or on request) offline."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from sodamem.answer.types import Answer
from sodamem.llm.config import llm_configured
from sodamem.retrieve.query import require_words

if TYPE_CHECKING:
    from sodamem.memory import Memory

__all__ = ["ask", "llm_configured"]


def ask(
    memory: Memory,
    question: str,
    *,
    now: datetime | None = None,
    offline: bool = False,
    budget_tokens: int = 1_500,
    max_steps: int = 3,
    user: str | None = None,
) -> Answer:
    """A cited answer: the planner and reader of ``answer.llm_loop`` when an LLM is configured, the offline reader
    otherwise or with ``offline``. A question without a letter or digit raises ``InputError``."""
    from sodamem.answer.offline import answer_offline

    require_words(question, "question")
    if offline or not llm_configured():
        return answer_offline(memory, question, now=now, budget_tokens=budget_tokens, user=user)
    from sodamem.answer.llm_loop import answer_with_llm
    from sodamem.llm.client import ChatClient
    from sodamem.llm.prices import prices_from_env

    prices = prices_from_env()  # before any request: a bad price table is an input error, not a late surprise
    with ChatClient.from_env() as client:
        return answer_with_llm(
            memory, question, client, now=now, max_steps=max_steps, budget_tokens=budget_tokens, prices=prices,
            user=user,
        )  # fmt: skip
