"""What the web page shows, built from the library's records: marked text, readable dates, the timeline's
supersession chains and the forget plan. Pure functions over records (and one ``Memory``); no HTTP here."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise

from sodamem.errors import NotFoundError
from sodamem.memory import Memory
from sodamem.records import FactRecord, ForgetReport, TurnRecord

# -- marked text ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """A range of a text to mark: a fact's source (linking to the fact) or a cited quote."""

    start: int
    end: int
    fact_id: int | None = None
    status: str = ""  # the fact's status: the mark's colour
    title: str = ""
    cited: bool = False


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text covered by the same spans, the narrowest first (that one is the mark's link)."""

    text: str
    spans: tuple[Span, ...] = ()

    @property
    def link(self) -> int | None:
        return next((s.fact_id for s in self.spans if s.fact_id is not None), None)

    @property
    def classes(self) -> str:
        names = {f"st-{s.status}" for s in self.spans if s.status} | {"cite" for s in self.spans if s.cited}
        return " ".join(sorted(names))

    @property
    def title(self) -> str:
        return "; ".join(s.title for s in self.spans if s.title)


def segments(text: str, spans: list[Span]) -> list[Segment]:
    """Cut ``text`` at every span edge (spans are clamped to the text; empty ones dropped); overlaps nest."""
    kept = [
        Span(max(0, s.start), min(len(text), s.end), s.fact_id, s.status, s.title, s.cited)
        for s in spans
        if max(0, s.start) < min(len(text), s.end)
    ]
    edges = sorted({0, len(text)} | {s.start for s in kept} | {s.end for s in kept})
    out: list[Segment] = []
    for a, b in pairwise(edges):
        covering = tuple(sorted((s for s in kept if s.start <= a and s.end >= b), key=lambda s: s.end - s.start))
        if out and out[-1].spans == covering:
            out[-1] = Segment(out[-1].text + text[a:b], covering)
        else:
            out.append(Segment(text[a:b], covering))
    return out


def fact_span(fact: FactRecord, start: int, end: int) -> Span:
    return Span(start, end, fact.id, fact.status, f"#{fact.id} {fact.text} ({fact.status})")


# -- dates ------------------------------------------------------------------------------------------------------


def parse_iso(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        return None


def when(value: str | None) -> str:
    """``2026-03-02T19:05:00`` as ``2 Mar 2026, 19:05`` (just the date at midnight); unparseable: as it is."""
    moment = parse_iso(value)
    if moment is None:
        return value or ""
    day = f"{moment.day} {moment:%b %Y}"
    return day if (moment.hour, moment.minute, moment.second) == (0, 0, 0) else f"{day}, {moment:%H:%M}"


def day(value: str | None) -> str:
    moment = parse_iso(value)
    return f"{moment:%a} {moment.day} {moment:%B %Y}" if moment else (value or "")


def period(start: str | None, end: str | None, granularity: str | None = None) -> str:
    """A resolved time as people write it: ``23 Mar 2026``, ``Jun – Aug 2025``, ``2 Mar 2026, 06:00–12:00``
    (the stored end is exclusive)."""
    first, last = parse_iso(start), parse_iso(end)
    if first is None:
        return start or ""
    if last is None or last <= first:
        return when(start)
    midnights = first.time() == last.time() == datetime.min.time()
    if not midnights:
        if first.date() == last.date():
            return f"{when(start)}–{last:%H:%M}"
        return f"{when(start)} – {when(end)}"
    final = last - timedelta(days=1)  # the last day inside
    if final.date() == first.date():
        return when(start)
    if first.day == 1 and last.day == 1:  # whole months
        if (first.month, first.year) == (final.month, final.year):
            return f"{first:%b %Y}"
        if first.month == 1 and final.month == 12:
            return str(first.year) if first.year == final.year else f"{first.year} – {final.year}"
        return f"{first:%b} – {final:%b %Y}" if first.year == final.year else f"{first:%b %Y} – {final:%b %Y}"
    if first.year == final.year:
        return f"{first.day} {first:%b} – {final.day} {final:%b %Y}"
    return f"{when(start)} – {final.day} {final:%b %Y}"


def fact_times(fact: FactRecord) -> list[str]:
    """A fact's times in a line: when it was said, when it happened (an event), from when and until when it held
    (only what the first two do not already say)."""
    out = [f"said {when(fact.mentioned_at)}"]
    if fact.occurred_start:
        words = f" (“{fact.occurred_expression}”)" if fact.occurred_expression else ""
        out.append(f"happened {period(fact.occurred_start, fact.occurred_end, fact.occurred_granularity)}{words}")
    elif fact.valid_from and fact.valid_from != fact.mentioned_at:
        out.append(f"valid {validity(fact)}")
        return out
    if fact.valid_to:
        out.append(f"held until {when(fact.valid_to)}")
    return out


def validity(fact: FactRecord) -> str:
    if not fact.valid_from:
        return ""
    return f"{when(fact.valid_from)} → {when(fact.valid_to) if fact.valid_to else 'now'}"


# -- links ------------------------------------------------------------------------------------------------------

_VERBS = {
    ("SUPERSEDES", "out"): "supersedes",
    ("SUPERSEDES", "in"): "superseded by",
    ("UPDATES", "out"): "updates",
    ("UPDATES", "in"): "updated by",
    ("CONTRADICTS", "out"): "contradicts",
    ("CONTRADICTS", "in"): "contradicted by",
    ("NEIGHBOR", "out"): "similar to",
    ("NEIGHBOR", "in"): "similar to",
}


def link_verb(kind: str, direction: str) -> str:
    return _VERBS.get((kind, direction), f"{kind.lower()} ({direction})")


@dataclass(frozen=True, slots=True)
class LinkView:
    kind: str
    verb: str
    fact_id: int
    other: FactRecord | None  # None: the other fact is gone


def link_views(memory: Memory, fact: FactRecord, user: str) -> list[LinkView]:
    """The fact's links, each once (a NEIGHBOR link is stored both ways), with the fact at the other end."""
    seen: set[tuple[str, int]] = set()
    out = []
    for link in fact.links:
        verb = link_verb(link.type, link.direction)
        if (verb, link.fact_id) in seen:
            continue
        seen.add((verb, link.fact_id))
        try:
            other: FactRecord | None = memory.fact(link.fact_id, user=user)
        except NotFoundError:
            other = None
        out.append(LinkView(link.type, verb, link.fact_id, other))
    return out


# -- the timeline -----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Step:
    """One fact of a chain, and how the fact before it gave way to it."""

    fact: FactRecord
    arrow: str = ""  # "superseded by", "updated by", ...: empty for the first fact
    at: str = ""  # when it gave way


@dataclass(slots=True)
class Chain:
    steps: list[Step]

    @property
    def newest(self) -> FactRecord:
        return self.steps[-1].fact

    @property
    def changed(self) -> bool:
        return len(self.steps) > 1


@dataclass(slots=True)
class Day:
    date: str  # ISO date of the day
    chains: list[Chain] = field(default_factory=list)
    sessions: list[str] = field(default_factory=list)


def _arrow(older: FactRecord, newer: FactRecord) -> str:
    """How ``older`` gave way to ``newer``, read from the link between them (``superseded by``, ...)."""
    for link in newer.links:
        if link.fact_id == older.id and link.type != "NEIGHBOR":
            return link_verb(link.type, "in" if link.direction == "out" else "out")
    return "superseded by" if older.status == "superseded" else "followed by"


def chains(memory: Memory, facts: list[FactRecord], user: str) -> list[Chain]:
    """The facts grouped by their slot's history (what replaced what), each chain oldest first; chains in the
    order of their newest fact. A fact that is active and has no replacing link stands alone without asking
    for its history."""
    position = {f.id: i for i, f in enumerate(facts)}
    placed: set[int] = set()
    groups: list[list[FactRecord]] = []
    for fact in facts:
        if fact.id in placed:
            continue
        linked = fact.status != "active" or any(link.type != "NEIGHBOR" for link in fact.links)
        slot = memory.history(fact.id, user=user) if linked else [fact]
        members = {f.id: f for f in slot if f.id in position and f.id not in placed} | {fact.id: fact}
        placed.update(members)
        groups.append(sorted(members.values(), key=lambda f: position[f.id]))
    out = [chain_of(group) for group in groups]
    out.sort(key=lambda c: position[c.newest.id])
    return out


def chain_of(facts: list[FactRecord]) -> Chain:
    """One slot's facts (oldest first) as a chain, each step saying how the one before gave way to it."""
    steps = [Step(facts[0])]
    for older, newer in pairwise(facts):
        steps.append(Step(newer, _arrow(older, newer), when(older.valid_to or newer.valid_from)))
    return Chain(steps)


def days(chain_list: list[Chain]) -> list[Day]:
    """Chains under the day their newest fact was said, days in time order."""
    out: dict[str, Day] = {}
    for chain in chain_list:
        date = chain.newest.mentioned_at[:10]
        entry = out.setdefault(date, Day(date))
        entry.chains.append(chain)
        for source in chain.newest.sources:
            if source.session_id not in entry.sessions:
                entry.sessions.append(source.session_id)
    return sorted(out.values(), key=lambda d: d.date)


# -- forgetting -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """What a forget form names: exactly one of a session, a turn (with its session) or a fact."""

    session_id: str | None = None
    turn_id: str | None = None
    fact_id: int | None = None

    @property
    def kind(self) -> str:
        return "fact" if self.fact_id is not None else "turn" if self.turn_id is not None else "session"

    @property
    def label(self) -> str:
        if self.fact_id is not None:
            return f"fact #{self.fact_id}"
        if self.turn_id is not None:
            return f"turn {self.turn_id} of session {self.session_id}"
        return f"session {self.session_id}"


@dataclass(slots=True)
class ForgetView:
    target: Target
    report: ForgetReport
    turns: list[tuple[str, TurnRecord | None]]  # "<session>/<turn>" and the turn when it could be read
    facts: list[tuple[int, FactRecord | None]]
    trimmed: list[tuple[int, FactRecord | None]]


def forget_view(memory: Memory, target: Target, user: str) -> ForgetView:
    """What forgetting ``target`` would remove (a dry run), with the text of each turn and fact named."""
    report = memory.forget(
        session_id=target.session_id, turn_id=target.turn_id, fact_id=target.fact_id, user=user, dry_run=True
    )
    known: dict[str, TurnRecord] = {}
    for session_id in {*report.sessions, *([target.session_id] if target.session_id else [])}:
        try:
            for turn in memory.session(session_id, user=user).turns:
                known[f"{turn.session_id}/{turn.turn_id}"] = turn
        except NotFoundError:
            pass

    def facts(ids: list[int]) -> list[tuple[int, FactRecord | None]]:
        out: list[tuple[int, FactRecord | None]] = []
        for fact_id in ids:
            try:
                out.append((fact_id, memory.fact(fact_id, user=user)))
            except NotFoundError:
                out.append((fact_id, None))
        return out

    turns = [(ref, known.get(ref)) for ref in report.turns]
    return ForgetView(target, report, turns, facts(report.facts), facts(report.facts_trimmed))
