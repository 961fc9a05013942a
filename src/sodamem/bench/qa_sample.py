"""A fixed, documented sample of a QA benchmark's questions, spread over its categories.

Local models answer a question in tens of seconds, so a QA table over a whole split is out of reach on a laptop;
a sample must still cover every category and be the same for every model, budget and evidence source compared.
``sample_questions(units, n)`` takes the questions round-robin over the categories (in sorted order), each
category's questions ordered by a hash of their id: the same ``n`` gives the same questions on any machine, and a
larger ``n`` extends a smaller one's sample. ``skip`` drops the first ``skip`` questions of that order: a slice for
tuning a prompt that is disjoint from the sample it will be measured on.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence

from sodamem.bench.runner import BenchQuestion, BenchUnit


def _rank(question: BenchQuestion) -> str:
    return hashlib.sha256(question.qid.encode("utf-8")).hexdigest()


def sample_questions(units: Sequence[BenchUnit], n: int, *, skip: int = 0) -> list[BenchUnit]:
    """The units holding questions ``skip + 1`` .. ``skip + n`` of the round-robin over categories (see the module
    docstring); units left with no question are dropped, the others keep their questions in their original order."""
    if n < 1:
        raise ValueError(f"a sample needs at least one question, not {n}")
    if skip < 0:
        raise ValueError(f"cannot skip {skip} questions")
    by_category: dict[str, list[BenchQuestion]] = {}
    for unit in units:
        for question in unit.questions:
            by_category.setdefault(question.category, []).append(question)
    queues = [sorted(by_category[c], key=_rank) for c in sorted(by_category)]
    order: list[str] = []
    depth = 0
    while len(order) < skip + n and any(depth < len(q) for q in queues):
        for queue in queues:
            if depth < len(queue) and len(order) < skip + n:
                order.append(queue[depth].qid)
        depth += 1
    chosen = set(order[skip:])
    if skip and not chosen:
        raise ValueError(f"skipping {skip} questions leaves none: the data holds {len(order)}")
    picked = [dataclasses.replace(u, questions=[q for q in u.questions if q.qid in chosen]) for u in units]
    return [u for u in picked if u.questions]
