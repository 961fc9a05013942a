"""``sodamem bench ...``: thin click commands over the benchmark modules."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, Literal

import click

from sodamem.bench.cli_common import default_cache, open_embedder, parse_ks, postgres_server
from sodamem.bench.crash import crash_command
from sodamem.bench.cv_grid import DEFAULT_SYSTEM, KNOBS, LLM_KNOBS, cv_to_json, grid_systems, render_cv_markdown, run_cv
from sodamem.bench.decompose_setup import DecomposeChoice, open_decomposer
from sodamem.bench.extract_setup import (
    ExtractorChoice,
    extractor_options,
    open_extractor,
    pop_extractor,
    pop_slice,
    slice_options,
)
from sodamem.bench.histories_cli import histories_command
from sodamem.bench.locomo import CATEGORY_NAMES
from sodamem.bench.packs_cli import packs_command
from sodamem.bench.perf_cli import perf_command, pg_adds_command
from sodamem.bench.qa_cli import QAOptions, qa_options, run_qa_cli
from sodamem.bench.report import SessionRule, plot_recall, render_markdown, run_to_json, summarise
from sodamem.bench.runner import ABLATIONS, BUDGETS, SYSTEMS, BenchRun, BenchUnit, run_retrieval
from sodamem.embed import DEFAULT_EMBEDDER, EMBEDDER_CHOICES
from sodamem.ingest.extract.base import Extractor
from sodamem.llm.prompts.decompose_query import DECOMPOSE_PROMPT_CHOICES
from sodamem.retrieve.presets import fused_settings

RULES = ExtractorChoice()  # the memory's default facts


def chosen_name(extractor: Extractor | None) -> str:
    return extractor.name if extractor is not None else "none"


def _common(func: Any) -> Any:
    options = [
        click.option("--data", "data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True),
        click.option(
            "--system",
            "systems",
            multiple=True,
            callback=_check_systems,
            help=f"Repeat to pick (default: the four systems): {', '.join(SYSTEMS)}, sodamem:<preset>, or a variant"
            " sodamem:<preset>+<setting>=<value>+... (e.g. 'sodamem:default+session_share=0.3').",
        ),
        click.option("--ablations", is_flag=True, help="Also run the memory's search with each ablation preset."),
        click.option(
            "--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES, "none"]), show_default=True
        ),
        click.option("--cache", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Embedding cache."),
        click.option("--no-cache", is_flag=True, help="Embed everything afresh."),
        click.option("--limit", type=int, default=None, help="Only the first N units (conversations / questions)."),
        click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None),
        click.option("--report", type=click.Path(dir_okay=False, path_type=Path), default=None),
        click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _check_systems(_ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    for value in values:
        mode, sep, preset = value.partition(":")
        if mode not in SYSTEMS or (sep and mode != "sodamem"):
            raise click.BadParameter(f"{value!r}: one of {', '.join(SYSTEMS)} or sodamem:<preset>[+key=value...]")
        if sep:
            try:
                fused_settings(preset)
            except ValueError as e:
                raise click.BadParameter(f"{value!r}: {e}") from None
    return values


@click.group()
def bench() -> None:
    """Benchmarks: LoCoMo and LongMemEval retrieval, performance."""


@bench.command()
@_common
@click.option("--k", "k_values", default="1,5,10,20", show_default=True, help="Comma-separated k values.")
@click.option(
    "--cv", is_flag=True,
    help="Leave-one-conversation-out cross-validation of the search's knobs (runs every alternative setting).",
)  # fmt: skip
@click.option(
    "--cv-knob", "cv_knobs", multiple=True, type=click.Choice(list(KNOBS)),
    help="With --cv: only these knobs (repeat; default: all).",
)  # fmt: skip
@click.option(
    "--cv-tiebreak-at20", "cv_tiebreak_at20", is_flag=True,
    help="With --cv: settings tied on R_all@10 + R_any@10 are ordered by R_all@20 (for settings below rank 10).",
)  # fmt: skip
@click.option(
    "--db-backend", "db_backend", type=click.Choice(["sqlite", "postgres"]), default="sqlite", show_default=True,
    help="postgres: run each system on SQLite and on PostgreSQL and print both side by side.",
)  # fmt: skip
@click.option("--pg-url", default=None, help="With --db-backend postgres: a server to use (default: a temporary one).")
@click.option(
    "--category", "categories", multiple=True, type=click.Choice(list(CATEGORY_NAMES.values())),
    help="Only the questions of this category (repeat; default: all). Scored as usual.",
)  # fmt: skip
@click.option(
    "--decompose", is_flag=True,
    help="The memory's search decomposes each question into sub-queries with the configured LLM (SODAMEM_LLM_*;"
    " --replay records and replays its replies); compare with 'sodamem:default+subquery_weight=0'.",
)  # fmt: skip
@click.option(
    "--decompose-prompt", default="auto", type=click.Choice(DECOMPOSE_PROMPT_CHOICES), show_default=True,
    help="The decomposition prompt (auto: compact for a local GGUF model, full otherwise).",
)  # fmt: skip
@qa_options
@slice_options
@extractor_options
def locomo(
    k_values: str,
    cv: bool,
    cv_knobs: tuple[str, ...],
    cv_tiebreak_at20: bool,
    categories: tuple[str, ...],
    decompose: bool,
    decompose_prompt: str,
    **options: Any,
) -> None:
    """LoCoMo: turn-level retrieval (one fresh memory per conversation, categories 1-4 scored), or with --qa
    question answering scored by the official token F1 per category (and an LLM judge with --judge).
    --conversation/--sessions keep a slice (and the questions whose evidence lies inside it); --extractor picks
    what makes the memory's facts for retrieval; --category keeps some categories' questions."""
    from sodamem.bench.locomo import load_locomo

    qa, qa_opts = QAOptions.pop_from(options)
    dialogue_slice, extractor = pop_slice(options), pop_extractor(options)
    loaded, locomo_notes = load_locomo(options["data"])
    units = dialogue_slice.of_units(loaded)
    notes = asdict(locomo_notes)
    if not dialogue_slice.whole:
        notes |= {"slice": dialogue_slice.describe(), "questions_in_slice": sum(len(u.questions) for u in units)}
    if categories:
        units = [replace(u, questions=[q for q in u.questions if q.category in categories]) for u in units]
        notes |= {"categories": list(categories), "questions_kept": sum(len(u.questions) for u in units)}
    if qa and decompose:
        raise click.UsageError("--decompose is the retrieval's query decomposition; it does not combine with --qa")
    if qa:
        if cv:
            raise click.UsageError("--cv cross-validates retrieval settings; it does not combine with --qa")
        if options.pop("db_backend") != "sqlite" or options.pop("pg_url") is not None:
            raise click.UsageError("--db-backend postgres compares retrieval; it does not combine with --qa")
        if extractor != RULES:
            raise click.UsageError("--extractor/--extract-* choose the facts for retrieval; --qa builds its own")
        _qa("locomo", units, notes, qa_opts, **options)
        return
    if (cv_knobs or cv_tiebreak_at20) and not cv:
        raise click.UsageError("--cv-knob and --cv-tiebreak-at20 need --cv")
    title = "LoCoMo"
    if not dialogue_slice.whole or extractor != RULES:
        title += f" ({dialogue_slice.describe()}; facts: {extractor.name})"
    if not decompose and (qa_opts.replay is not None or qa_opts.replay_only):
        raise click.UsageError("--replay/--replay-only record LLM replies: for retrieval, with --decompose")
    _run(
        units,
        title,
        parse_ks(k_values),
        "topk-turns",
        notes,
        cv_knobs=(cv_knobs or tuple(k for k in KNOBS if decompose or k not in LLM_KNOBS)) if cv else (),
        cv_tiebreak_at20=cv_tiebreak_at20,
        extractor=extractor,
        decompose=DecomposeChoice(decompose_prompt, qa_opts.replay, qa_opts.replay_only) if decompose else None,
        **options,
    )


@bench.command()
@_common
@click.option("--granularity", type=click.Choice(["session", "turn"]), default="session", show_default=True)
@click.option("--k", "k_values", default="1,3,5,10,30,50", show_default=True, help="Comma-separated k values.")
@qa_options
def longmemeval(granularity: str, k_values: str, **options: Any) -> None:
    """LongMemEval retrieval with its own metric definitions (user turns only; abstention skipped), or with --qa
    question answering judged by LongMemEval's judge (--judge; without it an offline stand-in, named as such)."""
    qa, qa_opts = QAOptions.pop_from(options)
    if qa:
        from sodamem.bench.qa_longmemeval import load_longmemeval_qa

        qa_units, qa_notes = load_longmemeval_qa(options["data"])
        _qa("longmemeval", qa_units, asdict(qa_notes), qa_opts, **options)
        return
    from sodamem.bench.longmemeval import load_longmemeval

    units, notes = load_longmemeval(options["data"], "turn" if granularity == "turn" else "session")
    _run(units, f"LongMemEval ({granularity})", parse_ks(k_values), "widen", asdict(notes), **options)


def _qa(
    dataset: Literal["locomo", "longmemeval"],
    units: list[BenchUnit],
    notes: dict[str, Any],
    qa: QAOptions,
    *,
    data: Path,
    systems: tuple[str, ...],
    ablations: bool,
    embedder: str,
    cache: Path | None,
    no_cache: bool,
    limit: int | None,
    json_out: Path | None,
    report: Path | None,
    plot: Path | None,
) -> None:
    if systems or ablations:
        raise click.UsageError("--system and --ablations are retrieval options; --qa answers with --answerer")
    model = open_embedder(embedder, None if no_cache or embedder == "fake" else (cache or default_cache()))
    run_qa_cli(
        dataset, units, notes, qa, data=data, embedder=model, limit=limit, json_out=json_out, report=report, plot=plot
    )


def _run(
    units: list[BenchUnit],
    title: str,
    ks: tuple[int, ...],
    session_rule: SessionRule,
    notes: dict[str, Any],
    *,
    data: Path,
    systems: tuple[str, ...],
    ablations: bool,
    embedder: str,
    cache: Path | None,
    no_cache: bool,
    limit: int | None,
    json_out: Path | None,
    report: Path | None,
    plot: Path | None,
    cv_knobs: tuple[str, ...] = (),
    cv_tiebreak_at20: bool = False,
    db_backend: str = "sqlite",
    pg_url: str | None = None,
    extractor: ExtractorChoice = RULES,
    decompose: DecomposeChoice | None = None,
) -> None:
    chosen = systems or (SYSTEMS if embedder != "none" else ("bm25", "sodamem"))
    if ablations:
        chosen = (*chosen, *(a for a in ABLATIONS if a not in chosen))
    fixed = tuple(s for s in chosen if s != DEFAULT_SYSTEM)
    if cv_knobs:
        chosen = tuple(dict.fromkeys((*chosen, *grid_systems(cv_knobs))))
    units = units[:limit] if limit is not None else units
    model = open_embedder(embedder, None if no_cache else (cache or default_cache()))
    total = sum(len(u.questions) for u in units)
    with click.progressbar(length=total, label=title, file=sys.stderr, hidden=not sys.stderr.isatty()) as bar:
        last = 0

        def advance(done: int, _total: int) -> None:
            nonlocal last
            bar.update(done - last)
            last = done

        with open_extractor(extractor) as opened, open_decomposer(decompose) as decomposing:
            run: BenchRun = run_retrieval(
                units,
                dataset=title,
                systems=chosen,
                ks=ks,
                budgets=BUDGETS,
                embedder=model,
                extractor=opened.extractor,
                progress=advance,
                decomposer=decomposing.decomposer,
            )
            extractor_notes = {"extractor": chosen_name(opened.extractor), **opened.usage_notes()}
            if decomposing.decomposer is not None:
                extractor_notes["decomposition"] = decomposing.notes()
    if db_backend == "postgres":
        from sodamem.bench.report import render_backends
        from sodamem.store.postgres.scratch import scratch_databases

        with postgres_server(pg_url) as url_of, open_extractor(extractor) as opened:
            on_postgres = run_retrieval(
                units, dataset=title, systems=chosen, ks=ks, budgets=BUDGETS, embedder=model,
                extractor=opened.extractor, location=scratch_databases(url_of, "sodamem_bench"),
            )  # fmt: skip
        click.echo(render_backends(summarise(run, session_rule=session_rule), run.seconds,
                                   summarise(on_postgres, session_rule=session_rule), on_postgres.seconds))  # fmt: skip
    run.notes = {"data": data.name, **notes, **extractor_notes}
    summary = summarise(run, session_rule=session_rule)
    unscored = summarise(run, session_rule=session_rule, scored=False)
    markdown = render_markdown(run, summary, title, unscored)
    if "decomposition" in run.notes:
        markdown += f"\nQuery decomposition: {json.dumps(run.notes['decomposition'])}\n"
    payload = run_to_json(run, summary, unscored)
    if cv_knobs:
        cv_report = run_cv(run.results, cv_knobs, fixed, tiebreak_at20=cv_tiebreak_at20)
        markdown += "\n" + render_cv_markdown(cv_report)
        payload["cross_validation"] = cv_to_json(cv_report)
    click.echo(markdown)
    if json_out is not None:
        json_out.write_text(json.dumps(payload), "utf-8")
    if report is not None:
        report.write_text(f"# SodaMem retrieval benchmark\n\n{markdown}\nNotes: {json.dumps(run.notes)}\n", "utf-8")
    if plot is not None:
        plot_recall(summary, ks, plot, title)


@bench.command()
@click.option("--data", "data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@extractor_options
@slice_options
@click.option(
    "--labels",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Hand labels (JSONL, see bench/extraction_labels.py): report the precision of the labelled facts.",
)
@click.option(
    "--facts-out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write every grounded fact as a JSON line (to label by hand).",
)
@click.option("--no-resolver", is_flag=True, help="Skip timing the time resolver and scoring the phrase tables.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
def extract(
    data: Path, labels: Path | None, facts_out: Path | None, no_resolver: bool, json_out: Path | None, **options: Any
) -> None:
    """Fact extraction on a dialogue file: facts per 100 turns, quotes not in their turn, resolved times, pieces/s,
    time-phrase accuracy, and with --labels the precision of hand-labelled facts."""
    from sodamem.bench.extraction import measure_extraction, render_extraction_markdown
    from sodamem.bench.extraction_labels import read_labels
    from sodamem.ingest.formats import load_sessions

    chosen, dialogue_slice = pop_extractor(options), pop_slice(options)
    sessions = dialogue_slice.of_sessions(load_sessions(data))
    hand_labels = read_labels(labels) if labels is not None else None
    if chosen.name == "none":
        raise click.UsageError("--extractor none makes no facts to measure")
    with open_extractor(chosen) as opened:
        assert opened.extractor is not None
        report = measure_extraction(sessions, opened.extractor, labels=hand_labels, resolver=not no_resolver)
        report.notes = {"slice": dialogue_slice.describe(), **opened.usage_notes()}
    click.echo(render_extraction_markdown(report, data.name))
    if json_out is not None:
        json_out.write_text(json.dumps(report.to_dict(), indent=1), "utf-8")
    if facts_out is not None:
        facts_out.write_text("".join(record.to_json() + "\n" for record in report.records), "utf-8")


@bench.command()
@click.option("--data", "data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--size", default=20_000, show_default=True, type=click.IntRange(min=100), help="Corpus size in turns.")
@click.option("--embedder", default="fake", type=click.Choice(EMBEDDER_CHOICES), show_default=True)
def append(data: Path, size: int, embedder: str) -> None:
    """The vector index after one more session: appending the new rows against rebuilding it."""
    from sodamem.bench.append import measure_append, render_append_markdown

    click.echo(render_append_markdown(measure_append(data, size, embedder), size, embedder), nl=False)


@bench.command()
@click.option("--data", "data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--sizes", default="1000,100000", show_default=True, help="Store sizes in turns.")
@click.option("--adds", default=300, show_default=True, type=click.IntRange(min=10), help="Messages added per size.")
@click.option("--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES, "none"]), show_default=True)
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
def live(data: Path, sizes: str, adds: int, embedder: str, json_out: Path | None) -> None:
    """The live memory: message-by-message facts against whole sessions, add and forget latency, search after adds."""
    from sodamem.bench.live import render_live_markdown, run_live_bench

    report = run_live_bench(
        data, parse_ks(sizes), adds=adds, embedder=embedder, progress=lambda line: click.echo(line, err=True)
    )
    if json_out is not None:
        json_out.write_text(json.dumps(report.to_dict(), indent=2) + "\n", encoding="utf-8")
    click.echo(render_live_markdown(report), nl=False)


@bench.command("qa-table")
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--flash-model", default="gemini-2.5-flash", show_default=True, help="Prices the token counts.")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None, help="F1 against tokens (PNG).")
@click.option(
    "--paired", is_flag=True,
    help="Also compare question by question (bootstrap intervals): each run with the first, and with its offline"
    " reader.",
)  # fmt: skip
def qa_table(runs: tuple[Path, ...], flash_model: str, plot: Path | None, paired: bool) -> None:
    """QA runs side by side (the --json files of `bench locomo --qa`): F1 per category, tokens, seconds, fallbacks."""
    from sodamem.bench.qa_paired import paired_runs, paired_with_offline, render_paired
    from sodamem.bench.qa_table import plot_f1_tokens, render_table, table_rows

    rows, loaded = [], []
    for path in runs:
        try:
            data = json.loads(path.read_text("utf-8"))
            rows += table_rows([data], flash_model)
        except (ValueError, KeyError, TypeError) as exc:
            raise click.BadParameter(f"{path}: not a QA run's JSON ({type(exc).__name__}: {exc})") from None
        loaded.append((path, data))
    click.echo(render_table(rows, flash_model))
    if paired:
        comparisons = [p for _, run in loaded if (p := paired_with_offline(run)) is not None]
        first_path, first = loaded[0]
        for path, run in loaded[1:]:
            try:
                comparisons.append(paired_runs(first, run))
            except ValueError as exc:
                raise click.BadParameter(f"{path} against {first_path}: {exc}") from None
        click.echo("\n" + render_paired(comparisons))
    if plot is not None:
        plot_f1_tokens(rows, plot)


@bench.command("qa-pool")
@click.argument("runs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Where the pooled run's JSON goes (read it with qa-table).")  # fmt: skip
@click.option("--flash-model", default="gemini-2.5-flash", show_default=True, help="Prices the token counts.")
def qa_pool(runs: tuple[Path, ...], json_out: Path, flash_model: str) -> None:
    """Runs of one configuration on disjoint slices (--sample-skip) joined into one run, its summary recomputed."""
    from sodamem.bench.qa_pool import pool_runs
    from sodamem.bench.qa_table import render_table, table_rows

    loaded = []
    for path in runs:
        try:
            loaded.append(json.loads(path.read_text("utf-8")))
        except ValueError as exc:
            raise click.BadParameter(f"{path}: not JSON ({exc})") from None
    try:
        pooled = pool_runs(loaded, [path.name for path in runs]).to_dict()
    except (KeyError, TypeError) as exc:
        raise click.BadParameter(f"not a QA run's JSON ({type(exc).__name__}: {exc})") from None
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    json_out.write_text(json.dumps(pooled, indent=2) + "\n", encoding="utf-8")
    click.echo(render_table(table_rows([pooled], flash_model), flash_model))


@bench.command("embed")
@click.option("--data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES]), show_default=True)
@click.option(
    "--reference", is_flag=True, help="Also all-MiniLM-L6-v2 in numpy and on sentence-transformers (torch), compared."
)
@click.option("--texts", default=500, show_default=True, type=click.IntRange(min=1), help="Ingest texts embedded.")
@click.option("--queries", default=200, show_default=True, type=click.IntRange(min=1), help="One-text queries.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
def embed_speed(data: Path, embedder: str, reference: bool, texts: int, queries: int, json_out: Path | None) -> None:
    """Embedder speed on LoCoMo: texts per CPU-second, one-text query CPU, cold start (a fresh process)."""
    from sodamem.bench.embed_speed import NUMPY_REFERENCE, TORCH_REFERENCE, render_embed_speed, run_embed_speed

    backends = [embedder, NUMPY_REFERENCE, TORCH_REFERENCE] if reference else [embedder]
    report = run_embed_speed(data, backends, texts, queries)
    if json_out is not None:
        json_out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    click.echo(render_embed_speed(report), nl=False)


@bench.command()
@click.option("--counts", default="1,10,300", show_default=True, help="Users in one file, comma-separated.")
def users(counts: str) -> None:
    """What per-user full-text indexes cost as the users of one file grow (adds, opening, file size)."""
    from sodamem.bench.users import measure_users, render_users_markdown

    click.echo(render_users_markdown(measure_users(parse_ks(counts))), nl=False)


@bench.command("serve")
@click.option(
    "--data", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
    help="A LoCoMo file (default: the bundled demo history).",
)  # fmt: skip
@click.option("--conversation", default=0, show_default=True, type=click.IntRange(min=0), help="Which one of --data.")
@click.option("--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES, "none"]), show_default=True)
@click.option(
    "--workers", type=click.IntRange(1, 8), default=None,
    help="Server worker processes. [default: as `sodamem serve`, one per core]",
)  # fmt: skip
@click.option(
    "--threads", default=1, show_default=True, type=click.IntRange(1, 64), help="Requests each worker serves at once."
)
@click.option("--seconds", default=20.0, show_default=True, type=click.FloatRange(0.5, 600), help="Load this long...")
@click.option("--max-requests", default=100_000, show_default=True, type=click.IntRange(min=1), help="...or this many.")
@click.option("--searchers", default=4, show_default=True, type=click.IntRange(0, 64), help="Clients searching.")
@click.option("--adders", default=1, show_default=True, type=click.IntRange(0, 16), help="Clients adding messages.")
@click.option("--askers", default=0, show_default=True, type=click.IntRange(0, 16), help="Clients asking (offline).")
@click.option("--port", default=0, show_default=True, type=click.IntRange(0, 65535), help="0: a free one.")
@click.option(
    "--keep-alive", is_flag=True,
    help="Each client keeps one connection (pinned to one worker); default: a new connection per request.",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def serve(as_json: bool, **options: Any) -> None:
    """A real `sodamem serve` on 127.0.0.1 under concurrent clients: cold start, per-operation throughput and
    latency, errors, and every answered add checked in the store afterwards."""
    from sodamem.bench.serve_load import ServeBenchError, run_serve_bench

    try:
        report = run_serve_bench(**options, progress=lambda line: click.echo(line, err=True))
    except ServeBenchError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(json.dumps(report.to_dict(), indent=1) if as_json else report.render(), nl=as_json)
    if report.errors or report.adds_lost or report.adds_duplicated:
        raise SystemExit(1)


@bench.command("qa-locomo", hidden=True)
@click.option("--data", "data", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True)
@click.option("--embedder", default=DEFAULT_EMBEDDER, type=click.Choice([*EMBEDDER_CHOICES, "none"]), show_default=True)
@click.option("--limit", type=int, default=None, help="Only the first N conversations.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--report", type=click.Path(dir_okay=False, path_type=Path), default=None)
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None)
@qa_options
def qa_locomo(**options: Any) -> None:
    """Alias of ``bench locomo --qa``."""
    from sodamem.bench.locomo import load_locomo

    _, qa_opts = QAOptions.pop_from(options)
    units, notes = load_locomo(options["data"])
    _qa("locomo", units, asdict(notes), qa_opts, systems=(), ablations=False, cache=None, no_cache=False, **options)


bench.add_command(crash_command)
bench.add_command(histories_command)
bench.add_command(packs_command)
bench.add_command(perf_command)
bench.add_command(pg_adds_command)
