"""CLI commands of the server: ``serve`` (HTTP API, MCP and web page) and ``keys`` (who may call it)."""

from __future__ import annotations

import os
import socket

import click

from sodamem.cli import _print_json
from sodamem.errors import InputError, MissingDependencyError
from sodamem.server.settings import MAX_DEFAULT_WORKERS, default_workers
from sodamem.store.opening import open_store, require_database
from sodamem.store.write_protocol import Store


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help=f"Worker processes. [default: one per core this process may use, at most {MAX_DEFAULT_WORKERS}]",
)
@click.option(
    "--threads", "pool_size", default=1, show_default=True, type=click.IntRange(min=1),
    help="Requests each worker serves at once (one database connection each); more where requests wait on a remote"
    " LLM rather than on the CPU.",
)  # fmt: skip
@click.option("--no-auth", is_flag=True, help="Serve --user's memory without keys (loopback addresses only).")
@click.option("--max-body", "max_body", default=8 * 1024 * 1024, show_default=True, type=click.IntRange(min=1024))
@click.option("--log-level", default="warning", show_default=True, type=click.Choice(["debug", "info", "warning"]))
@click.pass_context
def serve(
    ctx: click.Context,
    host: str,
    port: int,
    workers: int | None,
    pool_size: int,
    no_auth: bool,
    max_body: int,
    log_level: str,
) -> None:
    """Serve the memory: the HTTP API under /v1 (OpenAPI at /docs), MCP at /mcp and the web page at /."""
    workers = workers or default_workers()
    try:
        import uvicorn
    except ImportError:
        raise MissingDependencyError("the server needs its extra: pip install 'sodamem[serve]'") from None
    from sodamem.server.settings import ENV_KEY, ServeSettings

    settings = ServeSettings(
        db=ctx.obj["db"], host=host, port=port, workers=workers, auth=not no_auth, user=ctx.obj["user"],
        embedder=ctx.obj["embedder"] or "auto", pool_size=pool_size, max_body_bytes=max_body,
    ).check()  # fmt: skip
    os.environ[ENV_KEY] = settings.to_env()  # each worker process builds its app from it
    _require_free_port(host, port)
    click.echo(f"sodamem serving {settings.db} on http://{host}:{port} ({workers} worker(s))", err=True)
    uvicorn.run(
        "sodamem.server.app:app_from_env", factory=True, host=host, port=port, workers=workers, log_level=log_level,
        loop="sodamem.server.accept_gate:GatedEventLoop",  # a worker accepts only while it can serve
    )  # fmt: skip


def _require_free_port(host: str, port: int) -> None:
    """Refuse a port another process listens on before saying "serving" (uvicorn would log and exit 3 after it);
    bound as uvicorn binds it, with SO_REUSEADDR, so a port left in TIME_WAIT is free."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}", field="--host") from None
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}", field="--port") from None


@click.group()
def keys() -> None:
    """API keys of the server: each key reaches exactly one user's memory."""


@keys.command("create")
@click.option("--user", "owner", required=True, help="The user the key reaches.")
@click.option("--label", default="", help="A note to tell keys apart (who holds it).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def keys_create(ctx: click.Context, owner: str, label: str, as_json: bool) -> None:
    """Create a key and print it once: only its hash is stored."""
    from sodamem.keys import KeyRing

    record, key = KeyRing(_store(ctx, create=True)).create(owner, label=label)
    if as_json:
        _print_json({**record.to_dict(), "key": key})
        return
    click.echo(key)
    click.echo(f"key {record.id} for user {owner!r}: shown once, store it now", err=True)


@keys.command("list")
@click.option("--user", "owner", default=None, help="Only this user's keys.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def keys_list(ctx: click.Context, owner: str | None, as_json: bool) -> None:
    """Every key (never the key itself): id, user, first characters, label, created, revoked."""
    from sodamem.keys import KeyRing

    records = KeyRing(_store(ctx)).list(owner)
    if as_json:
        _print_json({"keys": [r.to_dict() for r in records]})
        return
    for r in records:
        state = f"revoked {r.revoked_at}" if r.revoked_at else "live"
        click.echo(f"{r.id}\t{r.user}\t{r.prefix}…\t{r.created_at}\t{state}\t{r.label}")


@keys.command("revoke")
@click.argument("key_id", type=int)
@click.pass_context
def keys_revoke(ctx: click.Context, key_id: int) -> None:
    """Revoke a key by its id: requests with it get 401 from then on."""
    from sodamem.keys import KeyRing

    record = KeyRing(_store(ctx)).revoke(key_id)
    click.echo(f"key {record.id} of user {record.user!r} revoked at {record.revoked_at}")


def _store(ctx: click.Context, *, create: bool = False) -> Store:
    """The store holding the keys; only ``keys create`` may start a database file."""
    if not create:
        require_database(ctx.obj["db"], "--db")
    store = open_store(ctx.obj["db"])
    ctx.call_on_close(store.close)
    return store
