"""`sodamem migrate --from A --to B`: a whole memory from an SQLite file to PostgreSQL or back."""

from __future__ import annotations

import json

import click

from sodamem.migrate import migrate


@click.command("migrate")
@click.option("--from", "source", required=True, help="The memory to copy: an SQLite file or postgresql://...")
@click.option(
    "--to", "target", required=True, help="Where to: an SQLite file or postgresql://... (holding none of its users)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def migrate_command(source: str, target: str, as_json: bool) -> None:
    """Copy every user's memory, its vectors and its embedder setting from one store to another; exit 1 when the
    target's exports differ from the source's."""
    report = migrate(source, target)
    if as_json:
        click.echo(json.dumps(report.to_dict()))
    else:
        verdict = "identical exports" if report.identical else "EXPORTS DIFFER"
        click.echo(
            f"{len(report.users)} users, {report.sessions} sessions, {report.facts} facts, {report.vectors} vectors "
            f"copied: {verdict}"
        )
    if not report.identical:
        raise SystemExit(1)
