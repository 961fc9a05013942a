"""CLI command ``mcp``: the memory's tools over MCP on stdin/stdout, for an agent that starts it as a subprocess."""

from __future__ import annotations

import contextlib
import sys

import click

from sodamem.errors import MissingDependencyError
from sodamem.memory import Memory


@click.command("mcp")
@click.option("--user", default=None, help="Whose memory the tools reach (default: the global --user).")
@click.pass_context
def mcp_command(ctx: click.Context, user: str | None) -> None:
    """Serve MCP over stdio: remember, search_memory, ask_memory, list_facts, fact_history and forget.

    Stdout carries the protocol only; messages go to stderr. Over HTTP, `sodamem serve` offers the same tools
    at /mcp, one user per key.
    """
    try:
        from sodamem.server.mcp_tools import build_mcp_server, fixed_tenant
    except ImportError:
        raise MissingDependencyError("the MCP server needs its extra: pip install 'sodamem[serve]'") from None

    owner = user or ctx.obj["user"]
    with contextlib.redirect_stdout(sys.stderr):  # whatever opening the memory prints must not corrupt the protocol
        memory = Memory(ctx.obj["db"], user=owner, embedder=ctx.obj["embedder"])
    try:
        build_mcp_server(fixed_tenant(memory, owner)).run("stdio")
    finally:
        memory.close()
