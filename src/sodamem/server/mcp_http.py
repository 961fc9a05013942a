"""MCP over streamable HTTP at ``/mcp`` (to be built)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, nullcontext

from fastapi import FastAPI


def mount_mcp(app: FastAPI) -> AbstractAsyncContextManager[None]:
    """Mount ``/mcp`` on ``app``; the returned context runs the MCP session manager for the app's lifetime."""
    return nullcontext()
