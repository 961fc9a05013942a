"""The web page at ``/``: a timeline of the user's facts and how they changed, each fact with its quote inside the
message it came from, the sessions, search (with why each hit came up), cited answers, and forgetting.

Server-rendered (Jinja2, autoescaped) without any script. With authentication on, the login page stores the
pasted API key in an HttpOnly, SameSite=Strict cookie that every page reads (the API wants the header); forms
that change something also check the Origin header.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from sodamem.server.auth import COOKIE
from sodamem.server.pool import MemoryPool
from sodamem.server.web_core import (
    HERE,
    PageRoute,
    check_form_origin,
    cookie_path,
    render,
    root,
    safe_next,
    settings_of,
)
from sodamem.server.web_pages import router as pages

login_router = APIRouter(route_class=PageRoute, include_in_schema=False)


def install_web(app: FastAPI) -> None:
    """Add the page's routes to ``app``, and its stylesheet under ``/static``."""
    app.include_router(login_router)
    app.include_router(pages)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")


@login_router.get("/login", response_class=HTMLResponse, response_model=None)
def login_page(request: Request, next: str = "/") -> HTMLResponse | RedirectResponse:
    if not settings_of(request).auth:
        return RedirectResponse(root(request) + "/", status_code=303)
    return render(request, "login.html", nav=None, next=safe_next(next), error=None)


@login_router.post("/login", response_class=HTMLResponse, response_model=None)
def login(
    request: Request, key: Annotated[str, Form()] = "", next: Annotated[str, Form()] = "/"
) -> HTMLResponse | RedirectResponse:
    """Check the pasted key; a live one is kept in the cookie, and the page it came for is shown."""
    check_form_origin(request)
    if not settings_of(request).auth:
        return RedirectResponse(root(request) + "/", status_code=303)
    key = key.strip()
    pool: MemoryPool = request.app.state.pool
    with pool.borrow() as memory:
        user = memory.keys.user_of(key) if key else None
    if user is None:
        error = "That key is unknown or revoked." if key else "Paste an API key."
        return render(request, "login.html", status=403, nav=None, next=safe_next(next), error=error)
    response = RedirectResponse(root(request) + safe_next(next), status_code=303)
    response.set_cookie(
        COOKIE, key, path=cookie_path(request), httponly=True, samesite="strict", secure=request.url.scheme == "https"
    )
    return response


@login_router.post("/logout")
def logout(request: Request) -> RedirectResponse:
    check_form_origin(request)
    response = RedirectResponse(root(request) + "/login", status_code=303)
    response.delete_cookie(COOKIE, path=cookie_path(request), httponly=True, samesite="strict")
    return response
