"""The command line: a thin adapter over ``Memory``. Human output by default, ``--json`` for machines."""

from __future__ import annotations

import io
import json
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from sodamem.demo import run_demo
from sodamem.embed import EMBEDDER_CHOICES
from sodamem.errors import InputError, SodaMemError
from sodamem.ingest.extract import DEFAULT_EXTRACTOR, EXTRACTOR_CHOICES
from sodamem.ingest.formats import InputFormat, load_sessions
from sodamem.ingest.timestamps import parse_as_of, parse_given_time
from sodamem.memory import Memory
from sodamem.records import FactRecord, SearchHit
from sodamem.retrieve.presets import PRESET_NAMES, fused_settings
from sodamem.retrieve.search import SearchMode
from sodamem.store.opening import require_database

EXIT_BAD_INPUT = 2


def _open(
    ctx: click.Context,
    user: str | None = None,
    extractor: str = "none",
    decomposer: str = "none",
    *,
    create: bool = False,
) -> Memory:
    """The memory behind a command; only ingestion extracts facts (reads need no extractor), and only a search
    asked to decomposes its question. Only the commands that write new memories (``create``) may start a database
    file: any other on a mistyped path exits 2 instead of answering from an empty memory it just made."""
    if not create:
        require_database(ctx.obj["db"], "--db")
    memory = Memory(
        ctx.obj["db"],
        user=user or ctx.obj["user"],
        embedder=ctx.obj["embedder"],
        extractor=extractor,
        decomposer=decomposer,
    )
    ctx.call_on_close(memory.close)
    return memory


def _print_json(payload: Any) -> None:
    click.echo(json.dumps(payload, ensure_ascii=False, indent=2))


@click.group()
@click.option(
    "--db",
    type=click.Path(),  # a directory or any other unopenable path fails in the store, as one `error:` line
    default="sodamem.db",
    envvar="SODAMEM_DB",
    show_default=True,
    help="SQLite database file.",
)
@click.option("--user", default="default", envvar="SODAMEM_USER", show_default=True, help="User namespace.")
@click.option(
    "--embedder",
    default="auto",
    envvar="SODAMEM_EMBEDDER",
    show_default=True,
    type=click.Choice(["auto", "none", *EMBEDDER_CHOICES]),
    help="auto: the one the database was built with, else the local MiniLM when installed.",
)
@click.option(
    "--llm-gguf",
    default=None,
    envvar="SODAMEM_LLM_GGUF",
    metavar="GGUF|NAME",
    help="Answer and extract with this local model (a GGUF file, or a name from `sodamem models list`), served "
    "on loopback by xllamacpp from its first use; wins over SODAMEM_LLM_BASE_URL.",
)
@click.version_option(package_name="sodamem")
@click.pass_context
def cli(ctx: click.Context, db: str, user: str, embedder: str, llm_gguf: str | None) -> None:
    """SodaMem: evidence-grounded memory for LLM agents."""
    ctx.ensure_object(dict)
    ctx.obj.update(db=db, user=user, embedder=embedder)
    if llm_gguf and ctx.invoked_subcommand != "models":  # `models fetch` must work before the model is there
        from sodamem.llm.local import announce_in_env

        announce_in_env(llm_gguf)  # checks the model now; its server starts only when an LLM is first used


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice([f.value for f in InputFormat]), default="auto", show_default=True)
@click.option("--user", default=None, help="Store every session under this user (default: the file's, else --user).")
@click.option("--replace", is_flag=True, help="Overwrite stored sessions whose content differs.")
@click.option(
    "--extractor",
    type=click.Choice(EXTRACTOR_CHOICES),
    default=DEFAULT_EXTRACTOR,
    show_default=True,
    help="Fact extraction: offline rules, an OpenAI-compatible LLM (SODAMEM_LLM_* variables), or none.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def ingest(
    ctx: click.Context, file: Path, fmt: str, user: str | None, replace: bool, extractor: str, as_json: bool
) -> None:
    """Ingest a dialogue FILE (generic JSON/JSONL, LoCoMo or LongMemEval)."""
    sessions = load_sessions(file, fmt)
    memory = _open(ctx, extractor=extractor, create=True)
    show_bars = not as_json and sys.stderr.isatty()
    with (
        click.progressbar(length=len(sessions), label="ingesting", file=sys.stderr, hidden=not show_bars) as bar,
        click.progressbar(length=0, label="embedding", file=sys.stderr, hidden=not show_bars) as embed_bar,
    ):
        try:
            report = memory.ingest(
                sessions, user=user, replace=replace, progress=_advance(bar), embed_progress=_advance(embed_bar)
            )
        except InputError as exc:
            raise exc.with_file(str(file)) if exc.file is None else exc from None
    if as_json:
        _print_json(report.to_dict())
        return
    click.echo(
        f"{file}: {report.sessions_added} sessions added, {report.sessions_replaced} replaced, "
        f"{report.sessions_unchanged} unchanged; {report.turns_added} turns, {report.pieces_added} pieces, "
        f"{report.facts_added} facts ({report.facts_rejected} candidates rejected) "
        f"(user {', '.join(report.users) or memory.user})"
    )


def _advance(bar: Any) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback driving a click progress bar."""
    state = {"done": 0}

    def update(done: int, total: int) -> None:
        bar.length = total
        bar.update(done - state["done"])
        state["done"] = done

    return update


def _check_preset(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    try:
        fused_settings(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    return value


_AS_OF = click.option(
    "--as-of",
    "as_of",
    default=None,
    help="Read the memory as it stood then (ISO 8601): nothing said later, the facts that held then.",
)


@cli.command()
@click.argument("query")
@click.option("--k", default=10, show_default=True, type=click.IntRange(min=1), help="Number of results.")
@click.option("--user", default=None, help="User namespace (default: the global --user).")
@click.option(
    "--mode",
    type=click.Choice([m.value for m in SearchMode]),
    default="auto",
    show_default=True,
    help="auto: the memory's own fusion with an embedder, else bm25.",
)
@click.option("--now", default=None, help="When the question is asked (its 'last month' counts from here).")
@_AS_OF
@click.option(
    "--preset",
    default="default",
    show_default=True,
    callback=_check_preset,
    help=f"{', '.join(PRESET_NAMES)}; or a variant: <preset>+<setting>=<value>+... (default+session_share=0.3).",
)
@click.option("--budget", type=click.IntRange(min=1), default=None, help="Print an evidence pack of this many tokens.")
@click.option("--explain", is_flag=True, help="Show which tunnels, hops, gates and bonuses made each score.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object with a 'results' list.")
@click.option(
    "--decompose",
    is_flag=True,
    help="Also search the sub-queries the configured LLM (SODAMEM_LLM_*) splits the question into; a failure is "
    "the plain search (said with --explain).",
)
@click.pass_context
def search(
    ctx: click.Context,
    query: str,
    k: int,
    user: str | None,
    mode: str,
    now: str | None,
    as_of: str | None,
    preset: str,
    budget: int | None,
    explain: bool,
    as_json: bool,
    decompose: bool,
) -> None:
    """Search the memory; every result cites session, turn and character span."""
    memory = _at(_open(ctx, user, decomposer="llm" if decompose else "none"), as_of)
    when = _parse_when(now, "--now")
    if budget is not None:
        pack = memory.evidence(query, budget_tokens=budget, now=when, preset=preset)
        click.echo(json.dumps(pack.to_dict(), ensure_ascii=False, indent=2) if as_json else pack.render_text())
        return
    hits = memory.search(query, k=k, mode=mode, now=when, preset=preset)
    if as_json:
        _print_json({"query": query, "user": memory.user, "results": [h.to_dict() for h in hits]})
        return
    if not hits:
        click.echo("no results")
    for rank, hit in enumerate(hits, start=1):
        click.echo(_render_hit(rank, hit))
        if explain:
            click.echo(f"      tunnels: {', '.join(hit.tunnels) or '-'}")
            for line in hit.explain:
                click.echo(f"      {line}")


def _render_hit(rank: int, hit: SearchHit) -> str:
    head = (
        f"{rank:>2}. {hit.session_id} · turn {hit.turn_id} · {hit.speaker} · {hit.timestamp} "
        f"· chars {hit.char_start}-{hit.char_end} · score {hit.score:.2f}"
    )
    return f"{head}\n    {click.style(hit.text, bold=True)}"


@cli.command()
@click.argument("kind", type=click.Choice(["turn", "session", "piece"]))
@click.argument("ident")
@click.option("--session", "session_id", default=None, help="Session of the turn or piece (for shared ids).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def show(ctx: click.Context, kind: str, ident: str, session_id: str | None, as_json: bool) -> None:
    """Show a turn (by turn id), a session (by id) or a piece (<turn_id>#<index> or number)."""
    if kind == "session" and session_id is not None:
        raise InputError("--session narrows a turn or a piece; a session is named by ID", field="--session")
    memory = _open(ctx)
    record: Any
    if kind == "turn":
        record = memory.turn(ident, session_id=session_id)
    elif kind == "session":
        record = memory.session(ident)
    else:
        record = memory.piece(ident, session_id=session_id)
    if as_json:
        _print_json(record.to_dict())
        return
    if kind == "session":
        click.echo(f"session {record.session_id} · {record.timestamp} · {len(record.turns)} turns")
        for turn in record.turns:
            click.echo(f"  [{turn.turn_id}] {turn.speaker}: {turn.text}")
    elif kind == "turn":
        click.echo(
            f"{record.session_id} · turn {record.turn_id} (#{record.turn_index}) · "
            f"{record.speaker} · {record.timestamp}"
        )
        click.echo(record.text)
        if record.caption:
            click.echo(f"[image: {record.caption}]")
        for piece in record.pieces:
            click.echo(f"  piece {piece.index} chars {piece.char_start}-{piece.char_end}: {piece.text}")
    else:
        c = record.citation
        click.echo(
            f"{c.session_id} · turn {c.turn_id} · {c.speaker} · {c.timestamp} · chars {c.char_start}-{c.char_end}"
        )
        click.echo(record.text)


@cli.command()
@click.option("--user", default=None, help="User namespace (default: the global --user).")
@click.option(
    "--status", type=click.Choice(["active", "superseded", "invalid", "all"]), default="active", show_default=True
)
@click.option("--as-of", "as_of", default=None, help="Facts holding at this time (ISO 8601 or a dataset date).")
@click.option("--subject", default=None, help="Only facts about this entity (any of its names).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def facts(
    ctx: click.Context, user: str | None, status: str, as_of: str | None, subject: str | None, as_json: bool
) -> None:
    """List facts with their status, validity and literal sources."""
    when = parse_as_of(as_of, "--as-of")
    records = _open(ctx, user).facts(status=status, as_of=when, subject=subject)
    if as_json:
        _print_json({"facts": [r.to_dict() for r in records]})
        return
    if not records:
        click.echo("no facts")
    for record in records:
        click.echo(_render_fact(record))


@cli.command()
@click.argument("fact_id", type=int)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def history(ctx: click.Context, fact_id: int, as_json: bool) -> None:
    """A fact's slot over time: what it replaced and what replaced it, oldest first."""
    chain = _open(ctx).history(fact_id)
    if as_json:
        _print_json({"fact_id": fact_id, "history": [r.to_dict() for r in chain]})
        return
    for record in chain:
        click.echo(_render_fact(record))


@cli.command("export")
@click.option("--user", default=None, help="User namespace (default: the global --user).")
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None, help="Write here, not stdout."
)
@click.pass_context
def export_command(ctx: click.Context, user: str | None, output: Path | None) -> None:
    """Write a user's memory as a dump (JSON lines, docs/dump-format.md): the backup `import` restores."""
    lines = _open(ctx, user).export()
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.writelines(line.encode("utf-8") for line in lines)  # UTF-8 whatever the locale
        sys.stdout.buffer.flush()
        return
    try:
        with output.open("w", encoding="utf-8", newline="\n") as out:
            out.writelines(lines)
    except OSError as exc:
        raise InputError(f"cannot write: {exc.strerror or exc}", file=str(output)) from None


@cli.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--user", default=None, help="Import under this user (default: the dump's own).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.pass_context
def import_command(ctx: click.Context, file: str, user: str | None, as_json: bool) -> None:
    """Restore a dump FILE (- for stdin) written by `export`, into a user that holds nothing yet."""
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8") if file == "-" else None
    report = _open(ctx, create=True).import_dump(stdin or Path(file), user=user)
    if as_json:
        _print_json(report.to_dict())
    elif report.unchanged:
        click.echo(f"{file}: already imported for user {report.user}; nothing changed")
    else:
        click.echo(
            f"{file}: {report.sessions} sessions, {report.turns} turns, {report.pieces} pieces, "
            f"{report.entities} entities, {report.facts} facts, {report.links} links imported "
            f"(user {report.user}); {report.embedded} texts embedded"
        )


def _at(memory: Memory, as_of: str | None) -> Memory:
    when = parse_as_of(as_of, "--as-of")
    return memory if when is None else memory.at(when)


def _parse_when(value: str | None, option: str = "--as-of") -> datetime | None:
    return parse_given_time(value, option)


def _render_fact(record: FactRecord) -> str:
    until = f" until {record.valid_to}" if record.valid_to else ""
    when = f" · occurred {record.occurred_start}..{record.occurred_end}" if record.occurred_start else ""
    source = record.sources[0] if record.sources else None
    cite = (
        f"{source.session_id} · turn {source.turn_id} · {source.timestamp} · "
        f"chars {source.char_start}-{source.char_end}"
        if source
        else ""
    )
    return (
        f"#{record.id} [{record.status}] {record.kind}/{record.predicate} ({record.modality}) "
        f"from {record.valid_from}{until}{when}\n    {click.style(record.text, bold=True)}\n"
        f"    “{source.quote if source else ''}” — {cite}"
    )


@cli.command()
@click.argument("question")
@click.option("--now", default=None, help="When the question is asked (default: now).")
@_AS_OF
@click.option("--offline", is_flag=True, help="The offline reader, even when an LLM is configured.")
@click.option("--budget", type=click.IntRange(min=50), default=1_500, show_default=True, help="Evidence tokens.")
@click.option("--steps", type=click.IntRange(min=0), default=3, show_default=True, help="Planner steps at most.")
@click.option("--user", default=None, help="User namespace (default: the global --user).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def ask(
    ctx: click.Context,
    question: str,
    now: str | None,
    as_of: str | None,
    offline: bool,
    budget: int,
    steps: int,
    user: str | None,
    as_json: bool,
) -> None:
    """Answer a question from the memory, citing its sources.

    With SODAMEM_LLM_BASE_URL and SODAMEM_LLM_MODEL (or OPENAI_*) set, a planner and a reader answer through that
    OpenAI-compatible API (with --llm-gguf / SODAMEM_LLM_GGUF: a local model); otherwise (or with --offline) the
    offline reader answers from the best evidence.
    """
    from sodamem.answer.ask import ask as ask_memory
    from sodamem.answer.render import render_answer

    memory = _at(_open(ctx, user), as_of)
    answer = ask_memory(
        memory, question, now=_parse_when(now, "--now"), offline=offline, budget_tokens=budget, max_steps=steps
    )
    if as_json:
        _print_json(answer.to_dict())
        return
    click.echo(render_answer(answer))


@cli.command()
@click.option("--all-users", is_flag=True, help="Counts for every user, not only --user.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def stats(ctx: click.Context, all_users: bool, as_json: bool) -> None:
    """Counts of sessions, turns, pieces, facts, entities and links per user."""
    rows = _open(ctx).stats(all_users=all_users)
    if as_json:
        _print_json({"users": [r.to_dict() for r in rows]})
        return
    for r in rows:
        click.echo(
            f"{r.user}: {r.sessions} sessions, {r.turns} turns, {r.pieces} pieces, {r.facts} facts, "
            f"{r.entities} entities, {r.links} links"
        )


EXIT_PROBLEMS = 1


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object: ok, checks, problems.")
@click.option(
    "--repair",
    is_flag=True,
    help="First rebuild the full-text indexes (a user's lost one too) and embed what lacks a vector.",
)
@click.pass_context
def check(ctx: click.Context, repair: bool, as_json: bool) -> None:
    """Check the whole database: exit 0 when sound, 1 listing each problem (2: no database there at all)."""
    memory = _open(ctx)
    if repair:
        memory.repair()
    report = memory.check()
    if as_json:
        _print_json({"db": ctx.obj["db"], **report.to_dict()})
    elif report.ok:
        click.echo(f"{ctx.obj['db']}: sound ({len(report.checks)} checks passed)")
    else:
        click.echo(f"{ctx.obj['db']}: {len(report.problems)} problem(s)")
        for problem in report.problems:
            click.echo(f"  [{problem.kind}] {problem.message}")
    if not report.ok:
        sys.exit(EXIT_PROBLEMS)  # not ctx.exit: main() runs click outside standalone mode, which swallows its code


@cli.command()
@click.option("--db", "demo_db", type=click.Path(dir_okay=False), default=None, help="Keep the demo database here.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def demo(ctx: click.Context, demo_db: str | None, as_json: bool) -> None:
    """Ingest the bundled example history into a fresh database (offline) and answer a few questions."""
    with tempfile.TemporaryDirectory() as tmp:
        path = demo_db or str(Path(tmp) / "demo.db")
        with Memory(path, embedder=ctx.obj["embedder"]) as memory:
            report, answers, changes = run_demo(memory)
            embedder = memory.embedder.name if memory.embedder else "none"
    if as_json:
        _print_json(
            {
                "ingest": report.to_dict(),
                "embedder": embedder,
                "changes": [
                    {"current": c.current.to_dict(), "replaced": [f.to_dict() for f in c.replaced]} for c in changes
                ],
                "answers": [
                    {
                        "question": a.question.question,
                        "answer": a.answer.to_dict(),
                        "results": [h.to_dict() for h in a.hits],
                    }
                    for a in answers
                ],
            }
        )
        return
    click.echo(
        f"Ingested the example history: {report.sessions_added} sessions, {report.turns_added} turns, "
        f"{report.pieces_added} pieces, {report.embedded} texts embedded.\n"
        f"Offline: SQLite + BM25 + embedder {embedder}; no LLM, no network.\n"
    )
    for answer in answers:
        click.echo(click.style(f"Q: {answer.question.question}", fg="cyan"))
        click.echo(click.style(f"A: {answer.answer.answer}", bold=True))
        for c in answer.answer.citations:
            click.echo(f'   cites {c.session_id} · turn {c.turn_id} · chars {c.char_start}-{c.char_end}: "{c.quote}"')
        click.echo("   best evidence:")
        for rank, hit in enumerate(answer.hits, start=1):
            click.echo(_render_hit(rank, hit))
        click.echo()
    click.echo(click.style(f"What changed ({report.facts_added} facts extracted offline by rules):", fg="cyan"))
    for change in changes:
        click.echo(_render_fact(change.current))
        for old in reversed(change.replaced):
            click.echo("  replaced " + _render_fact(old).replace("\n", "\n  "))
        click.echo()


def _register_bench() -> None:
    from sodamem.bench.cli import bench
    from sodamem.cli_live import add, forget
    from sodamem.cli_mcp import mcp_command
    from sodamem.cli_migrate import migrate_command
    from sodamem.cli_serve import keys, serve
    from sodamem.llm.models_cli import models

    cli.add_command(bench)
    cli.add_command(models)
    cli.add_command(add)
    cli.add_command(forget)
    cli.add_command(serve)
    cli.add_command(keys)
    cli.add_command(mcp_command)
    cli.add_command(migrate_command)


_register_bench()


def main(argv: list[str] | None = None) -> None:
    """Entry point: bad input ends with a one-line error and exit code 2, never a traceback."""
    run: Callable[..., Any] = cli.main
    try:
        run(args=argv, prog_name="sodamem", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except SodaMemError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
