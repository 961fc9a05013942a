"""The web page at ``/`` (to be built: timeline, fact page, sessions, search, ask, forget)."""

from __future__ import annotations

from fastapi import FastAPI


def install_web(app: FastAPI) -> None:
    """Add the page's routes to ``app``."""
