"""How much of a question's gold evidence reaches the reader: the evidence packs themselves, measured without an LLM.

The QA bench measures the memory's contribution through a small local model, 29 s a question, so its samples are
small (60 questions) and its memory-against-BM25 gap sits inside the noise of the model's reading. This bench
builds the very pack the LLM reader would get first (``Memory.evidence``: turns, their facts, session headers and
resolved time words, cut to the budget) for every question, with the memory's own search and with flat BM25, and
counts what reached it:

- ``gold_share``: the share of the question's gold evidence turns in the pack (LoCoMo's ``evidence`` ids);
- ``all_gold`` / ``any_gold``: every / at least one gold turn is in the pack;
- ``answer_in_pack``: the gold answer's words are in the pack's text (``metrics.contains_answer``);
- ``turns`` / ``facts`` / ``tokens``: what the pack spent its budget on;
- ``guarded``: the LLM loop's speaker guard (``offline.said_by_another_speaker``, over the same search) would answer
  "not in memory" before the reader saw the pack: right on LoCoMo's adversarial questions, a lost answer on the
  others.

Questions without gold evidence ids (or, for ``answer_in_pack``, without a gold answer) are left out of that
figure's mean, not scored as misses. One fresh memory per unit, built as the QA bench builds it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sodamem.answer.offline import said_by_another_speaker
from sodamem.bench.metrics import contains_answer, count_tokens
from sodamem.bench.runner import BenchQuestion, BenchUnit, each_question
from sodamem.embed.base import Embedder
from sodamem.memory import Memory

PACK_SYSTEMS = {"sodamem": "auto", "bm25": "bm25"}  # system name -> the search mode behind its pack
PACK_BUDGETS = (500, 1_000, 2_000)
_FIGURES = ("gold_share", "all_gold", "any_gold", "answer_in_pack", "guarded", "turns", "facts", "tokens")


@dataclass(frozen=True, slots=True)
class PackRow:
    """One question's pack from one system at one budget."""

    qid: str
    unit_id: str
    category: str
    system: str
    budget: int
    gold: int  # gold evidence turns the question names
    gold_found: int  # of them, in the pack
    answer_in_pack: bool | None  # None: the question has no gold answer
    turns: int
    facts: int
    tokens: int
    guarded: bool  # the speaker guard would abstain before the reader is asked

    @property
    def gold_share(self) -> float | None:
        return self.gold_found / self.gold if self.gold else None

    @property
    def all_gold(self) -> float | None:
        return float(self.gold_found == self.gold) if self.gold else None

    @property
    def any_gold(self) -> float | None:
        return float(self.gold_found > 0) if self.gold else None

    def figure(self, name: str) -> float | None:
        value = getattr(self, name)
        return float(value) if value is not None else None


@dataclass(frozen=True, slots=True)
class PackRun:
    dataset: str
    embedder: str | None
    systems: tuple[str, ...]
    budgets: tuple[int, ...]
    rows: tuple[PackRow, ...]
    seconds: float
    focus_tokens: int | None = None  # turn lines cut to their matching sentences (``retrieve.focus``)

    def summary(self) -> list[dict[str, Any]]:
        """One line per (category, system, budget), categories in order and ``all`` last: the mean of each figure
        over the questions it applies to, and how many questions that was."""
        categories = sorted({row.category for row in self.rows})
        lines = []
        for category in [*categories, "all"]:
            for system in self.systems:
                for budget in self.budgets:
                    rows = [
                        r
                        for r in self.rows
                        if r.system == system and r.budget == budget and category in ("all", r.category)
                    ]
                    line: dict[str, Any] = {
                        "category": category,
                        "system": system,
                        "budget": budget,
                        "questions": len(rows),
                    }
                    for name in _FIGURES:
                        values = [v for r in rows if (v := r.figure(name)) is not None]
                        line[name] = sum(values) / len(values) if values else None
                    lines.append(line)
        return lines

    def to_json(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "embedder": self.embedder,
            "systems": list(self.systems),
            "budgets": list(self.budgets),
            "seconds": self.seconds,
            "focus_tokens": self.focus_tokens,
            "summary": self.summary(),
            "rows": [asdict(row) for row in self.rows],
        }


def run_pack_recall(
    units: Sequence[BenchUnit],
    *,
    dataset: str,
    embedder: Embedder | str | None,
    systems: Sequence[str] = tuple(PACK_SYSTEMS),
    budgets: Sequence[int] = PACK_BUDGETS,
    focus_tokens: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> PackRun:
    """Build every question's first evidence pack with each system at each budget and count what reached it;
    ``focus_tokens``: packs of turn lines cut to their matching sentences (``retrieve.focus``)."""
    unknown = [s for s in systems if s not in PACK_SYSTEMS]
    if unknown:
        raise ValueError(f"unknown pack system(s) {', '.join(unknown)}: choose from {', '.join(PACK_SYSTEMS)}")
    if not budgets or min(budgets) < 1:
        raise ValueError("pack budgets must be positive token counts")
    started = time.perf_counter()
    rows: list[PackRow] = []
    total = sum(len(u.questions) for u in units)
    name = embedder if isinstance(embedder, str) else (embedder.name if embedder is not None else None)
    for done, (unit, memory, question, now) in enumerate(each_question(units, embedder), 1):
        rows.extend(_rows(memory, unit.unit_id, question, now, systems, budgets, focus_tokens))
        if progress is not None:
            progress(done, total)
    seconds = time.perf_counter() - started
    return PackRun(dataset, name, tuple(systems), tuple(budgets), tuple(rows), seconds, focus_tokens)


def _rows(
    memory: Memory,
    unit_id: str,
    question: BenchQuestion,
    now: datetime | None,
    systems: Sequence[str],
    budgets: Sequence[int],
    focus_tokens: int | None,
) -> list[PackRow]:
    gold = set(question.relevant_turns)
    rows = []
    for system in systems:
        guarded = said_by_another_speaker(memory, question.question, now=now, mode=PACK_SYSTEMS[system])
        for budget in budgets:
            pack = memory.evidence(
                question.question, budget_tokens=budget, now=now, mode=PACK_SYSTEMS[system], focus_tokens=focus_tokens
            )
            turns = {item.turn_id for item in pack.items if item.kind == "turn"}
            answer, text = question.answer, pack.render_text()
            rows.append(
                PackRow(
                    qid=question.qid,
                    unit_id=unit_id,
                    category=question.category,
                    system=system,
                    budget=budget,
                    gold=len(gold),
                    gold_found=len(gold & turns),
                    answer_in_pack=contains_answer(text, answer) if answer else None,
                    turns=len(turns),
                    facts=sum(1 for item in pack.items if item.kind == "fact"),
                    tokens=count_tokens(text),
                    guarded=guarded,
                )
            )
    return rows


def render_packs_markdown(run: PackRun, title: str) -> str:
    """A table per budget: a line per category and system."""
    out = [
        f"# {title}: what reaches the reader",
        "",
        f"Embedder {run.embedder}; {len({r.qid for r in run.rows})} questions; {run.seconds:.0f} s. Gold: the mean "
        "share of a question's gold evidence turns in its first pack; all / any: packs holding every / some gold "
        "turn; answer: packs holding the gold answer's words; guarded: questions the speaker guard answers 'not in "
        "memory' before the reader is asked.",
    ]
    summary = run.summary()
    for budget in run.budgets:
        out += [
            "",
            f"## {budget} tokens",
            "",
            "| category | system | n | gold | all | any | answer | guarded | turns | facts | tokens |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for line in (line for line in summary if line["budget"] == budget):
            shares = ("gold_share", "all_gold", "any_gold", "answer_in_pack", "guarded")
            figures = " | ".join(_cell(line[f]) for f in shares)
            spent = " | ".join(_cell(line[f], 1) for f in ("turns", "facts", "tokens"))
            out.append(f"| {line['category']} | {line['system']} | {line['questions']} | {figures} | {spent} |")
    return "\n".join(out) + "\n"


def _cell(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"
