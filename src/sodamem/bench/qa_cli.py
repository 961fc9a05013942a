"""The QA side of ``sodamem bench locomo|longmemeval --qa``: its options and the thin glue that runs it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import click

from sodamem.bench.qa_llm import ANSWERERS, answer_fn, open_llm
from sodamem.bench.qa_sample import sample_questions
from sodamem.bench.runner import BenchUnit
from sodamem.embed.base import Embedder
from sodamem.llm.prices import prices_from_env
from sodamem.llm.prompts.read_answer import READER_PROMPT_CHOICES, choose_reader_prompt

DEFAULT_BUDGET = {"offline": 1_000, "llm": 1_500, "llm-fake": 1_500}  # the readers' own defaults

QA_OPTION_NAMES = (
    "qa",
    "answerer",
    "model",
    "judge",
    "judge_model",
    "replay",
    "replay_only",
    "budget",
    "steps",
    "baseline",
    "sample",
    "sample_skip",
    "evidence",
    "reader_prompt",
    "speaker_guard",
    "cited_dates",
    "concise_answers",
    "focus_tokens",
    "list_budget",
    "offline_states",
    "offline_relations",
)
EVIDENCE_SOURCES = {"memory": "auto", "bm25": "bm25"}  # --evidence: the search behind the LLM loop's packs


@dataclass(frozen=True, slots=True)
class QAOptions:
    answerer: str = "offline"
    model: str | None = None
    judge: bool = False
    judge_model: str | None = None
    replay: Path | None = None
    replay_only: bool = False
    budget: int | None = None
    steps: int = 3
    baseline: bool = True
    sample: int | None = None
    sample_skip: int = 0
    evidence: str = "memory"
    reader_prompt: str = "auto"
    speaker_guard: bool = True
    cited_dates: bool = True
    concise_answers: bool = True
    focus_tokens: int | None = None
    list_budget: int | None = None
    offline_states: bool = False
    offline_relations: bool = True

    @classmethod
    def pop_from(cls, options: dict[str, Any]) -> tuple[bool, QAOptions]:
        """Take the QA options out of a click command's keyword arguments: (``--qa`` given, the options)."""
        values = {name: options.pop(name) for name in QA_OPTION_NAMES if name in options}
        qa = bool(values.pop("qa", False))
        return qa, cls(**values)


def qa_options(func: Any) -> Any:
    """The QA options of ``bench locomo`` and ``bench longmemeval`` (used with ``--qa``)."""
    options = [
        click.option("--qa", is_flag=True, help="Question answering instead of retrieval (see docs/bench.md)."),
        click.option(
            "--answerer",
            type=click.Choice(ANSWERERS),
            default="offline",
            show_default=True,
            help="QA: the offline reader, the LLM loop (SODAMEM_LLM_*), or the LLM loop on the fake server.",
        ),
        click.option("--model", default=None, help="QA: the answering model (default $SODAMEM_LLM_MODEL)."),
        click.option("--judge", is_flag=True, help="QA: also grade answers with the LLM judge (SODAMEM_LLM_*)."),
        click.option("--judge-model", default=None, help="QA: the judge's model (default: the answering model)."),
        click.option(
            "--replay",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="Record/replay cache of LLM replies (SQLite): QA's answers and judge, or --decompose's sub-queries.",
        ),
        click.option("--replay-only", is_flag=True, help="Only replay recorded LLM replies; never ask the server."),
        click.option(
            "--budget",
            type=click.IntRange(min=1),
            default=None,
            help="QA: evidence token budget per question (default 1000 offline, 1500 LLM).",
        ),
        click.option(
            "--list-budget",
            type=click.IntRange(min=1),
            default=None,
            help="QA with an LLM answerer: the evidence budget of a question that gathers several items (which "
            "<things>, how many, both, in common); default: --budget.",
        ),
        click.option(
            "--steps",
            type=click.IntRange(min=0),
            default=3,
            show_default=True,
            help="QA: at most this many planner calls per question.",
        ),
        click.option(
            "--baseline/--no-baseline",
            default=True,
            show_default=True,
            help="QA with an LLM answerer: also score the offline reader on the same questions.",
        ),
        click.option(
            "--sample",
            type=click.IntRange(min=1),
            default=None,
            help="QA: only N questions, taken round-robin over the categories in a fixed order (bench/qa_sample.py).",
        ),
        click.option(
            "--sample-skip",
            type=click.IntRange(min=0),
            default=0,
            show_default=True,
            help="QA with --sample: skip the first K questions of that order (a slice disjoint from a measured one).",
        ),
        click.option(
            "--reader-prompt",
            type=click.Choice(READER_PROMPT_CHOICES, case_sensitive=False),
            default="auto",
            show_default=True,
            help="QA with an LLM answerer: the reader's prompt (compact: short answers, for small models; "
            "compact-dated: the same over lines that name the day they were said; auto: compact for a local model, "
            "full otherwise).",
        ),
        click.option(
            "--speaker-guard/--no-speaker-guard",
            default=True,
            show_default=True,
            help="QA with an LLM answerer: abstain without asking the LLM when the question names one person and "
            "the words matching it were said by another (the offline reader's rule).",
        ),
        click.option(
            "--offline-states/--no-offline-states",
            default=False,
            show_default=True,
            help="QA with an LLM answerer: take the offline reader's answer without asking the LLM where it reads a "
            "state of the asker's life from the stored facts or a yes/no from a later ending or a plan called off.",
        ),
        click.option(
            "--offline-relations/--no-offline-relations",
            default=True,
            show_default=True,
            help="QA with an LLM answerer: answer 'Who is Finn?' with the relation a stored fact names ('Graham's "
            "grandson', the offline reader's reading) without asking the LLM.",
        ),
        click.option(
            "--cited-dates/--no-cited-dates",
            default=True,
            show_default=True,
            help="QA with an LLM answerer: say a when-question's answer as the date it states, else as the date of "
            "the evidence it cites (the model's words kept as the answer's detail).",
        ),
        click.option(
            "--concise-answers/--no-concise-answers",
            default=True,
            show_default=True,
            help="QA with an LLM answerer: drop the words of a one-sentence answer that only restate the question "
            "(the model's words kept as the answer's detail).",
        ),
        click.option(
            "--focus-tokens",
            type=click.IntRange(min=1),
            default=None,
            help="QA with an LLM answerer: cut every turn line of the packs longer than N tokens to its sentences "
            "that match the question (retrieve/focus.py); default: whole turns.",
        ),
        click.option(
            "--evidence",
            type=click.Choice(sorted(EVIDENCE_SOURCES)),
            default="memory",
            show_default=True,
            help="QA with an LLM answerer: the memory's own search behind its evidence, or flat BM25.",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def run_qa_cli(
    dataset: Literal["locomo", "longmemeval"],
    units: list[BenchUnit],
    load_notes: dict[str, Any],
    qa: QAOptions,
    *,
    data: Path,
    embedder: Embedder | None,
    limit: int | None,
    json_out: Path | None,
    report: Path | None,
    plot: Path | None,
) -> None:
    """Run a QA benchmark and write what was asked for (markdown to stdout; JSON, report, plot to files)."""
    from sodamem.bench.qa import run_locomo_qa
    from sodamem.bench.qa_judge import LLMJudge
    from sodamem.bench.qa_longmemeval import run_longmemeval_qa
    from sodamem.bench.qa_report import plot_cost_accuracy, render_qa_markdown

    units = units[:limit] if limit is not None else units
    if qa.sample_skip and qa.sample is None:
        raise click.UsageError("--sample-skip needs --sample")
    try:
        units = sample_questions(units, qa.sample, skip=qa.sample_skip) if qa.sample is not None else units
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    budget = qa.budget or DEFAULT_BUDGET[qa.answerer]
    total = sum(len(u.questions) for u in units)
    source = f", {qa.evidence} evidence" if qa.answerer != "offline" and qa.evidence != "memory" else ""
    title = f"{'LoCoMo' if dataset == 'locomo' else 'LongMemEval'} QA ({qa.answerer}{source})"
    with (
        open_llm(
            qa.answerer,
            judge=qa.judge,
            model=qa.model,
            judge_model=qa.judge_model,
            replay=qa.replay,
            replay_only=qa.replay_only,
        ) as setup,
        click.progressbar(length=total, label=title, file=sys.stderr, hidden=not sys.stderr.isatty()) as bar,
    ):
        # resolved once here (``auto`` by the answer model), so the run records the prompt every question used
        reader_prompt = choose_reader_prompt(qa.reader_prompt, setup.answer.config.model).name if setup.answer else None
        answer = answer_fn(
            qa.answerer,
            setup.answer,
            budget_tokens=budget,
            max_steps=qa.steps,
            search_mode=EVIDENCE_SOURCES[qa.evidence],
            reader_prompt=reader_prompt or qa.reader_prompt,
            speaker_guard=qa.speaker_guard,
            cited_dates=qa.cited_dates,
            concise_answers=qa.concise_answers,
            focus_tokens=qa.focus_tokens,
            list_budget_tokens=qa.list_budget,
            offline_states=qa.offline_states,
            offline_relations=qa.offline_relations,
        )
        offline_budget = qa.budget or DEFAULT_BUDGET["offline"]
        with_baseline = qa.baseline and qa.answerer != "offline"
        baseline = answer_fn("offline", None, budget_tokens=offline_budget, max_steps=0) if with_baseline else None
        judge = LLMJudge(setup.judge, prices=prices_from_env()) if setup.judge is not None else None
        runner: Callable[..., Any] = run_locomo_qa if dataset == "locomo" else run_longmemeval_qa
        run = runner(
            units, embedder, qa.answerer, answer=answer, judge=judge, baseline=baseline, progress=_advance(bar)
        )
    run.model = setup.answer.config.model if setup.answer is not None else None
    run.endpoint = setup.endpoint
    calls = {role: c.tallies() for role, c in (("answer", setup.answer), ("judge", setup.judge)) if c is not None}
    run.notes = {
        **run.notes,
        "data": data.name,
        "budget_tokens": budget,
        "max_steps": qa.steps if qa.answerer != "offline" else 0,
        "evidence": qa.evidence if qa.answerer != "offline" else "memory",
        "sample": qa.sample,
        "sample_skip": qa.sample_skip,
        "reader_prompt": reader_prompt,
        "speaker_guard": qa.speaker_guard if qa.answerer != "offline" else None,
        "cited_dates": qa.cited_dates if qa.answerer != "offline" else None,
        "concise_answers": qa.concise_answers if qa.answerer != "offline" else None,
        "focus_tokens": qa.focus_tokens if qa.answerer != "offline" else None,
        "list_budget_tokens": qa.list_budget if qa.answerer != "offline" else None,
        # recorded only when on, so a run without it pools with the runs made before the option existed
        **({"offline_states": True} if qa.offline_states and qa.answerer != "offline" else {}),
        # recorded only when on, as the option was off (absent) in the runs made before it existed
        **({"offline_relations": True} if qa.offline_relations and qa.answerer != "offline" else {}),
        "llm_calls": calls,
        **setup.notes,
        **load_notes,
    }
    markdown = render_qa_markdown(run)
    click.echo(markdown)
    if json_out is not None:
        json_out.write_text(json.dumps(run.to_dict()), "utf-8")
    if report is not None:
        notes = json.dumps({k: v for k, v in run.notes.items() if k != "llm_calls"})
        report.write_text(f"# SodaMem QA benchmark\n\n{markdown}\nNotes: {notes}\n", "utf-8")
    if plot is not None:
        plot_cost_accuracy([run], plot)


def _advance(bar: Any) -> Callable[[int, int], None]:
    last = 0

    def advance(done: int, _total: int) -> None:
        nonlocal last
        bar.update(done - last)
        last = done

    return advance
