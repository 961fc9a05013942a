"""CLI commands of the live memory (``add``, ``forget``): thin adapters over ``Memory.add`` and ``Memory.forget``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from sodamem.cli import _open, _parse_when, _print_json
from sodamem.errors import InputError
from sodamem.ingest.extract import DEFAULT_EXTRACTOR, EXTRACTOR_CHOICES
from sodamem.ingest.messages import read_jsonl
from sodamem.model import Message


@click.command()
@click.argument("text", required=False)
@click.option(
    "--session",
    "session_id",
    default=None,
    help="Session to add to (a new id starts one; default: the day the first message was said, e.g. 2026-12-05).",
)
@click.option("--speaker", default="user", show_default=True, help="Who said TEXT.")
@click.option("--id", "message_id", default=None, help="The message's id (default: <session>:<turn index>).")
@click.option("--at", "at", default=None, help="When it was said (ISO 8601; default: now).")
@click.option(
    "--jsonl",
    "jsonl",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    default=None,
    help='Messages, one JSON object a line: {"speaker"|"role", "text", "id"?, "timestamp"?} ("-": stdin).',
)
@click.option("--user", default=None, help="User namespace (default: the global --user).")
@click.option("--extractor", type=click.Choice(EXTRACTOR_CHOICES), default=DEFAULT_EXTRACTOR, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def add(
    ctx: click.Context,
    text: str | None,
    session_id: str | None,
    speaker: str,
    message_id: str | None,
    at: str | None,
    jsonl: Path | None,
    user: str | None,
    extractor: str,
    as_json: bool,
) -> None:
    """Remember a message (TEXT) or a stream of them (--jsonl) in a session, as they are said."""
    if (text is None) == (jsonl is None):
        raise InputError("give the message TEXT or --jsonl FILE, not both and not neither", field="text")
    when = _parse_when(at, "--at")
    if jsonl is not None:
        if str(jsonl) == "-":
            messages = read_jsonl(sys.stdin, speaker=speaker)
        else:
            try:
                with jsonl.open(encoding="utf-8") as stream:
                    messages = read_jsonl(stream, speaker=speaker)
            except OSError as exc:
                raise InputError(f"cannot read: {exc.strerror}", file=str(jsonl)) from None
            except UnicodeDecodeError:
                raise InputError("is not UTF-8 text", file=str(jsonl)) from None
    else:
        assert text is not None
        messages = [Message(speaker=speaker, text=text, id=message_id)]
    memory = _open(ctx, user, extractor=extractor, create=True)
    report = memory.add(messages, session_id=session_id, timestamp=when)
    if as_json:
        _print_json(report.to_dict())
        return
    for turn in report.added:
        click.echo(
            f"added {turn.session_id} · turn {turn.turn_id} (#{turn.turn_index}) · {turn.speaker} · {turn.timestamp}"
        )
    for ident in report.unchanged:
        click.echo(f"unchanged {report.session_id} · turn {ident} (already stored)")
    click.echo(f"{report.facts_added} facts, {report.embedded} texts embedded (user {report.user})")


@click.command()
@click.option("--session", "session_id", default=None, help="Forget this session (with --turn: the turn's session).")
@click.option("--turn", "turn_id", default=None, help="Forget this turn (its id, e.g. D3:7).")
@click.option("--fact", "fact_id", type=int, default=None, help="Forget this fact (the quoted turn stays).")
@click.option("--before", default=None, help="Forget everything said before this time (ISO 8601).")
@click.option("--everything", is_flag=True, help="Forget everything of the user (--user).")
@click.option("--user", default=None, help="User namespace (default: the global --user).")
@click.option("--dry-run", is_flag=True, help="List what would go; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def forget(
    ctx: click.Context,
    session_id: str | None,
    turn_id: str | None,
    fact_id: int | None,
    before: str | None,
    everything: bool,
    user: str | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Forget a session, a turn, a fact, everything before a time, or a user's everything, for good."""
    when = _parse_when(before, "--before")
    memory = _open(ctx, user)
    report = memory.forget(
        session_id=session_id, turn_id=turn_id, fact_id=fact_id, before=when, everything=everything, dry_run=dry_run
    )
    if as_json:
        _print_json(report.to_dict())
        return
    verb = "would forget" if dry_run else "forgot"
    click.echo(
        f"{verb} {len(report.sessions)} sessions, {len(report.turns)} turns, {len(report.facts)} facts "
        f"({len(report.facts_trimmed)} more keep other sources) of user {report.user}"
    )
    for ref in report.turns[:50]:
        click.echo(f"  turn {ref}")
    if len(report.turns) > 50:
        click.echo(f"  ... and {len(report.turns) - 50} more turns")
    for fact in report.facts[:50]:
        click.echo(f"  fact #{fact}")
    if not dry_run and not report.files_scrubbed:
        click.echo("warning: another process held the WAL open; it is truncated at its next checkpoint", err=True)
