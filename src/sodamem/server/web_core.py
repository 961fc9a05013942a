"""The web page's plumbing: templates (autoescaped), the route class that turns every error into an HTML page
(no key: a redirect to the login page), the checks on forms that change something, and one-shot notices."""

from __future__ import annotations

import base64
import binascii
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from fastapi import HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from starlette.exceptions import HTTPException as StarletteHTTPException

from sodamem.errors import SodaMemError
from sodamem.server.errors import status_of
from sodamem.server.settings import ServeSettings
from sodamem.server.web_views import day, fact_times, period, validity, when

log = logging.getLogger("sodamem.server")

HERE = Path(__file__).resolve().parent
NOTICE_COOKIE = "sodamem_notice"
_TITLES = {400: "Bad request", 403: "Forbidden", 404: "Not found", 409: "Conflict", 503: "Busy, retry"}
_HEADERS = {
    # No script at all, nothing from elsewhere, never inside another site's frame.
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; "
        "base-uri 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def _segment(value: object) -> str:
    """A value quoted to be one path segment of a URL (``/`` included)."""
    return quote(str(value), safe="")


def _query(**params: object) -> str:
    return urlencode({k: v for k, v in params.items() if v is not None})


templates = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
templates.filters.update(when=when, day=day, seg=_segment)
templates.globals.update(period=period, validity=validity, fact_times=fact_times, query=_query)


def root(request: Request) -> str:
    """The path the app is mounted under ("" at the top of the host)."""
    return str(request.scope.get("root_path", "")).rstrip("/")


def cookie_path(request: Request) -> str:
    return root(request) or "/"


def settings_of(request: Request) -> ServeSettings:
    settings: ServeSettings = request.app.state.settings
    return settings


def render(request: Request, name: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    """Render a template with what every page shows (the nav, the user, a pending notice) and clear the notice."""
    notice = take_notice(request)
    settings = settings_of(request)
    html = templates.get_template(name).render(
        root=root(request), auth=settings.auth, notice=notice, user=context.pop("user", None),
        nav=context.pop("nav", ""), **context,
    )  # fmt: skip
    response = HTMLResponse(html, status_code=status, headers=_HEADERS)
    if notice is not None:
        response.delete_cookie(NOTICE_COOKIE, path=cookie_path(request), httponly=True, samesite="strict")
    return response


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    title = _TITLES.get(status, "Error" if status < 500 else "Internal error")
    return render(request, "error.html", status=status, title=title, status_code=status, message=message)


def safe_next(target: str | None) -> str:
    """Where to go after logging in: a path on this site only (never ``//host`` or a scheme)."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")) or any(c in target for c in "\r\n"):
        return "/"
    return target


def login_redirect(request: Request) -> RedirectResponse:
    here = request.url.path
    if root(request) and here.startswith(root(request)):
        here = here[len(root(request)) :] or "/"
    if request.url.query:
        here += "?" + request.url.query
    target = "/login" if here == "/" else "/login?" + _query(next=here)
    return RedirectResponse(root(request) + target, status_code=303)


def redirect(request: Request, path: str, notice: str | None = None) -> RedirectResponse:
    response = RedirectResponse(root(request) + path, status_code=303)
    if notice is not None:
        response.set_cookie(
            NOTICE_COOKIE, _encode(notice), max_age=120, path=cookie_path(request), httponly=True, samesite="strict",
            secure=request.url.scheme == "https",
        )  # fmt: skip
    return response


def take_notice(request: Request) -> str | None:
    raw = request.cookies.get(NOTICE_COOKIE)
    if not raw:
        return None
    try:
        return base64.urlsafe_b64decode(raw.encode("ascii")).decode("utf-8")[:500]
    except (binascii.Error, UnicodeError, ValueError):
        return None


def _encode(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii")


def check_form_origin(request: Request) -> None:
    """A form that changes something must come from this site: the Origin header, when the browser sends one,
    names this host (the cookie is SameSite=Strict besides); a browser that says the request is cross-site is
    refused too."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and (origin == "null" or urlsplit(origin).netloc.lower() != host.lower()):
        raise HTTPException(403, "this form must be sent from this site's own page")
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise HTTPException(403, "this form must be sent from this site's own page")


class PageRoute(APIRoute):
    """A page: library errors become a 404/400/... page, a missing or unknown key a redirect to the login page,
    and each page carries headers that forbid scripts, framing and caching."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        inner = super().get_route_handler()

        async def page(request: Request) -> Response:
            try:
                return await inner(request)
            except StarletteHTTPException as exc:
                if exc.status_code == 401:
                    return login_redirect(request)
                return error_page(request, exc.status_code, str(exc.detail))
            except RequestValidationError as exc:
                errors = exc.errors()
                first: dict[str, Any] = errors[0] if errors else {}
                where = ".".join(str(p) for p in first.get("loc", ())[1:])
                return error_page(request, 400, f"{where}: {first.get('msg', 'invalid request')}".lstrip(": "))
            except SodaMemError as exc:
                return error_page(request, status_of(exc), str(exc))
            except Exception as exc:
                log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
                return error_page(request, 500, "something went wrong; the server's log has the details")

        return page
