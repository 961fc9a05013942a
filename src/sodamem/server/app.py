"""The ASGI application: ``/v1`` (HTTP API), ``/healthz``, the OpenAPI schema at ``/openapi.json`` and ``/docs``.

``create_app`` builds it for one worker process; ``app_from_env`` is the factory uvicorn imports in each worker.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version

from fastapi import FastAPI
from starlette.types import ASGIApp

from sodamem.blas import one_blas_thread_for_good
from sodamem.server.accept_gate import GatedEventLoop, RequestArrival, SlotCounting
from sodamem.server.api import router
from sodamem.server.errors import BodyLimit, install_error_handlers
from sodamem.server.host_guard import LoopbackNamesOnly
from sodamem.server.mcp_http import mount_mcp
from sodamem.server.pool import MemoryPool
from sodamem.server.schemas import Health
from sodamem.server.settings import ServeSettings
from sodamem.server.web import install_web

DESCRIPTION = """SodaMem: an evidence-grounded temporal memory for LLM agents.

Every request names its user by a bearer key (`sodamem keys create --user U`); each key reaches exactly one user's
memory, and another user's ids answer 404. Every hit, fact and answer cites its source: session, turn, character
span and time. Errors are `{"error": ..., "field": ...}` with a 4xx status."""


def create_app(settings: ServeSettings) -> ASGIApp:
    """The whole server for one worker: opens ``settings.db`` (creating it if new) with a pool of memories."""
    settings.check()
    one_blas_thread_for_good()
    pool = MemoryPool(settings.db, size=settings.pool_size, embedder=settings.embedder, user=settings.user)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        if isinstance(loop, GatedEventLoop):  # `sodamem serve`: accept only with a memory free
            loop.accept_gate.slots = settings.pool_size
        try:
            async with mcp_running:
                yield
        finally:
            pool.close()

    app = FastAPI(title="SodaMem", version=version("sodamem"), description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    app.state.pool = pool
    install_error_handlers(app)
    app.include_router(router)
    mcp_running = mount_mcp(app)
    install_web(app)

    @app.get("/healthz", response_model=Health, tags=["meta"], summary="Liveness (no key needed)")
    def healthz() -> Health:
        return Health(status="ok", version=version("sodamem"))

    # An oversized or stalled body is refused before any route (or error handler) sees it; a request is counted by
    # the accept gate once its body is in, so clients that stall their uploads cannot hold every slot.
    served = RequestArrival(BodyLimit(SlotCounting(app), settings.max_body_bytes))
    return served if settings.auth else LoopbackNamesOnly(served, bound=settings.host)


def app_from_env() -> ASGIApp:
    """The worker process's application. What it loaded (the model, spaCy, the indexes) lives as long as the
    process: frozen out of the collector's reach, it is not walked by every full collection (~40 ms each, in the
    middle of a request)."""
    app = create_app(ServeSettings.from_env())
    gc.collect()
    gc.freeze()
    return app
