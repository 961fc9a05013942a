"""Answers for people: the text, then each citation with where it comes from and its quote."""

from __future__ import annotations

from sodamem.answer.types import Answer


def render_answer(answer: Answer) -> str:
    detail = f" ({answer.detail})" if answer.detail else ""
    lines = [f"Q: {answer.question}", f"A: {answer.answer}{detail}"]
    if answer.abstained:
        lines.append("(abstained: the memory holds nothing that answers this)")
    if answer.citations:
        lines.append("Sources:")
        for c in answer.citations:
            quote = " ".join(c.quote.split())
            where = f"session {c.session_id}, turn {c.turn_id} [{c.char_start}:{c.char_end}], said {c.timestamp}"
            lines.append(f'  [{c.id}] {where}: "{quote}"')
    cost = answer.cost
    meta = [f"steps {answer.steps}", f"tokens in/out {cost.input_tokens}/{cost.output_tokens}", f"${cost.usd:.5f}"]
    if answer.flags:
        meta.append("flags " + ", ".join(answer.flags))
    lines.append("(" + "; ".join(meta) + ")")
    return "\n".join(lines)
