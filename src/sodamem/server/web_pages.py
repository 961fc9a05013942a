"""The pages: the timeline, a fact, the sessions and one session, search, ask, and forgetting (confirm, then do).

Each reads the caller's memory through ``Memory`` with ``user=caller.user``; a fact, session or turn of another
user is simply not found (a 404 page)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from sodamem.answer.ask import ask
from sodamem.errors import InputError, NotFoundError
from sodamem.ingest.timestamps import parse_as_of
from sodamem.memory import Memory
from sodamem.records import FactRecord, FactSource, SearchHit, TurnRecord
from sodamem.server.auth import Tenant, page_tenant
from sodamem.server.web_core import PageRoute, check_form_origin, redirect, render
from sodamem.server.web_views import (
    Segment,
    Span,
    Target,
    chain_of,
    chains,
    days,
    fact_span,
    forget_view,
    link_views,
    segments,
)

router = APIRouter(route_class=PageRoute, include_in_schema=False)
Caller = Annotated[Tenant, Depends(page_tenant)]
MAX_ID = 1 << 62
MAX_QUERY = 2_000
MAX_CHAINS = 500  # the timeline shows the latest this many entries


def parse_fact_id(raw: str) -> int:
    if not raw.isascii() or not raw.isdigit() or len(raw) > 19 or not 1 <= int(raw) <= MAX_ID:
        raise NotFoundError(f"no fact {raw!r}")
    return int(raw)


def check_query(text: str, field: str) -> str:
    text = text.strip()
    if len(text) > MAX_QUERY:
        raise InputError(f"is longer than {MAX_QUERY} characters", field=field)
    return text


# -- timeline and facts -----------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def timeline(request: Request, caller: Caller, show: str = "all") -> HTMLResponse:
    facts = caller.memory.facts(status="all", user=caller.user)
    entries = chains(caller.memory, facts, caller.user)
    if show == "changed":
        entries = [c for c in entries if c.changed]
    hidden = max(0, len(entries) - MAX_CHAINS)
    counts = {status: sum(f.status == status for f in facts) for status in ("active", "superseded", "invalid")}
    return render(
        request, "timeline.html", nav="timeline", user=caller.user, days=days(entries[hidden:]), counts=counts,
        hidden=hidden, show=show if show == "changed" else "all",
        changes=sum(1 for c in entries if c.changed),
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class SourceView:
    source: FactSource
    turn: TurnRecord | None  # None: the turn could not be read
    segments: list[Segment]


def source_views(memory: Memory, fact: FactRecord, user: str) -> list[SourceView]:
    out = []
    for source in fact.sources:
        try:
            turn: TurnRecord | None = memory.turn(source.turn_id, session_id=source.session_id, user=user)
        except NotFoundError:
            turn = None
        text = turn.text if turn else source.quote
        start, end = (source.char_start, source.char_end) if turn else (0, len(text))
        out.append(SourceView(source, turn, segments(text, [fact_span(fact, start, end)])))
    return out


@router.get("/facts/{fact_id}", response_class=HTMLResponse)
def fact_page(request: Request, fact_id: str, caller: Caller) -> HTMLResponse:
    fact = caller.memory.fact(parse_fact_id(fact_id), user=caller.user)
    history = caller.memory.history(fact.id, user=caller.user)
    return render(
        request, "fact.html", nav="timeline", user=caller.user, fact=fact,
        sources=source_views(caller.memory, fact, caller.user), links=link_views(caller.memory, fact, caller.user),
        history=chain_of(history) if len(history) > 1 else None,
    )  # fmt: skip


# -- sessions ---------------------------------------------------------------------------------------------------


@router.get("/sessions", response_class=HTMLResponse)
def sessions_page(request: Request, caller: Caller) -> HTMLResponse:
    listed = caller.memory.sessions(user=caller.user)
    return render(request, "sessions.html", nav="sessions", user=caller.user, sessions=listed)


@dataclass(frozen=True, slots=True)
class TurnView:
    turn: TurnRecord
    segments: list[Segment]
    facts: list[FactRecord]
    target: bool  # the turn a citation points at


@router.get("/sessions/{session_id:path}", response_class=HTMLResponse)
def session_page(
    request: Request,
    session_id: str,
    caller: Caller,
    turn: int | None = None,
    start: int | None = None,
    end: int | None = None,
) -> HTMLResponse:
    """Every turn with each fact's source marked (a mark links to its fact); ``turn``/``start``/``end`` mark a
    cited quote besides (the link of an answer's citation)."""
    record = caller.memory.session(session_id, user=caller.user)
    spans: dict[int, list[Span]] = {}
    facts: dict[int, list[FactRecord]] = {}
    for fact in caller.memory.facts(status="all", user=caller.user):
        for source in fact.sources:
            if source.session_id == session_id:
                spans.setdefault(source.turn_index, []).append(fact_span(fact, source.char_start, source.char_end))
                if fact not in facts.setdefault(source.turn_index, []):
                    facts[source.turn_index].append(fact)
    if turn is not None and start is not None and end is not None and 0 <= start < end:
        spans.setdefault(turn, []).append(Span(start, end, cited=True, title="the cited quote"))
    turns = [
        TurnView(t, segments(t.text, spans.get(t.turn_index, [])), facts.get(t.turn_index, []), t.turn_index == turn)
        for t in record.turns
    ]
    return render(
        request, "session.html", nav="sessions", user=caller.user, session=record, turns=turns,
        fact_count=len({f.id for fs in facts.values() for f in fs}),
    )  # fmt: skip


# -- search and ask ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HitView:
    hit: SearchHit
    segments: list[Segment]


@router.get("/search", response_class=HTMLResponse)
def search_page(request: Request, caller: Caller, q: str = "", k: int = 10) -> HTMLResponse:
    query = check_query(q, "q")
    hits = caller.memory.search(query, k=min(max(k, 1), 50), user=caller.user) if query else []
    views = [HitView(h, segments(h.turn_text, [Span(h.char_start, h.char_end, cited=True)])) for h in hits]
    return render(request, "search.html", nav="search", user=caller.user, q=query, hits=views, question="")


@router.get("/ask", response_class=HTMLResponse)
def ask_page(request: Request, caller: Caller, q: str = "", as_of: str = "") -> HTMLResponse:
    """A cited answer; with ``as_of`` (a date), as the memory stood at the end of that day (``Memory.at``)."""
    question = check_query(q, "q")
    memory = caller.memory if not as_of.strip() else caller.memory.at(known_by(as_of.strip()))
    answer = ask(memory, question, user=caller.user) if question else None
    return render(
        request, "ask.html", nav="search", user=caller.user, q="", question=question, answer=answer, as_of=as_of
    )


# -- forgetting -------------------------------------------------------------------------------------------------


def target_of(memory: Memory, user: str, session: str | None, turn: str | None, fact: str | None) -> Target:
    """Exactly one thing to forget: a fact, a turn (its session names it when turn ids repeat) or a session."""
    session, turn, fact = session or None, turn or None, fact or None
    if fact is not None:
        if session is not None or turn is not None:
            raise InputError("name a session, a turn or a fact, not several", field="fact")
        return Target(fact_id=parse_fact_id(fact))
    if turn is not None:
        record = memory.turn(turn, session_id=session, user=user)  # not found, or ambiguous, before planning
        return Target(session_id=record.session_id, turn_id=record.turn_id)
    if session is not None:
        return Target(session_id=session)
    raise InputError("name a session, a turn or a fact to forget", field="session")


def back_to(target: Target) -> str:
    """The page a target is shown on (where "cancel" goes)."""
    if target.fact_id is not None:
        return f"/facts/{target.fact_id}"
    return f"/sessions/{quote(target.session_id or '', safe='')}"


@router.get("/forget", response_class=HTMLResponse)
def forget_confirm(
    request: Request, caller: Caller, session: str | None = None, turn: str | None = None, fact: str | None = None
) -> HTMLResponse:
    """What would go (a dry run), and the form that forgets it."""
    target = target_of(caller.memory, caller.user, session, turn, fact)
    view = forget_view(caller.memory, target, caller.user)
    return render(request, "forget.html", nav="", user=caller.user, view=view, back=back_to(target))


@router.post("/forget")
def forget_do(
    request: Request,
    caller: Caller,
    session: Annotated[str | None, Form()] = None,
    turn: Annotated[str | None, Form()] = None,
    fact: Annotated[str | None, Form()] = None,
) -> RedirectResponse:
    check_form_origin(request)
    target = target_of(caller.memory, caller.user, session, turn, fact)
    report = caller.memory.forget(
        session_id=target.session_id, turn_id=target.turn_id, fact_id=target.fact_id, user=caller.user
    )
    notice = f"Forgot {target.label}: {_count(len(report.turns), 'turn')} and {_count(len(report.facts), 'fact')}."
    if report.facts_trimmed:
        notice += f" {_count(len(report.facts_trimmed), 'fact')} kept with their other sources."
    where = "/"
    if target.kind == "turn" and target.session_id not in report.sessions:
        where = back_to(target)
    return redirect(request, where, notice)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def known_by(as_of: str) -> datetime:
    """The time an ``as_of`` field names: a date picked on the page ("2026-03-05") means the end of that day."""
    when = parse_as_of(as_of)
    assert when is not None
    return when
