"""``sodamem bench live``: the live memory's figures, each beside its baseline from the same run.

* equivalence: the dev split replayed message by message against ingesting its sessions whole (no embedder):
  facts (with statuses and links) that differ;
* add latency (no embedder) at each store size: a store of ``size`` turns (the dev split replayed, ingested
  whole), then ``adds`` messages of sessions it does not hold added one at a time;
* with an embedder (smallest size only, where the messages are new text and so reach the model): each add's
  latency beside the time the embedder alone takes for that message's texts (turn and pieces);
* forgetting one session at each size (median over a few sessions), the FTS rewrite and WAL truncation included;
* search right after another connection's add (every cache refreshed) against search with no write between.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sodamem.bench.live_equivalence import compare, replay_messages
from sodamem.bench.perf import BENCH_USER, build_corpus, cycle_questions, load_locomo_dev
from sodamem.embed import DEFAULT_EMBEDDER
from sodamem.ingest.pieces import split_pieces
from sodamem.memory import Memory
from sodamem.model import Message, Session
from sodamem.store.sqlite import piece_embedding_text, turn_embedding_text

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Percentiles:
    n: int
    p50_ms: float
    p95_ms: float

    @staticmethod
    def of(seconds: Sequence[float]) -> Percentiles:
        values = np.asarray(seconds, dtype=np.float64) * 1000
        return Percentiles(len(values), float(np.percentile(values, 50)), float(np.percentile(values, 95)))


@dataclass(frozen=True, slots=True)
class SizeFigures:
    turns: int
    add: Percentiles  # no embedder
    forget_ms: float  # median over the forgotten sessions
    forgotten_sessions: int


@dataclass(frozen=True, slots=True)
class EmbedFigures:
    embedder: str
    add: Percentiles
    embed_only: Percentiles  # the embedder alone on the same messages' texts
    overhead: Percentiles  # add minus embedding, per message


@dataclass(frozen=True, slots=True)
class SearchFigures:
    turns: int
    embedder: str
    quiet: Percentiles  # no write between searches
    after_add: Percentiles  # each search follows another connection's add


@dataclass(slots=True)
class LiveReport:
    sessions: int
    turns: int
    facts_whole: int
    facts_differing: int
    sizes: list[SizeFigures] = field(default_factory=list)
    embedded: EmbedFigures | None = None
    search: SearchFigures | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_live_bench(
    data: Path,
    sizes: Sequence[int],
    *,
    adds: int = 300,
    embedder: str = DEFAULT_EMBEDDER,
    forgets: int = 5,
    searches: int = 100,
    progress: Progress = lambda _: None,
) -> LiveReport:
    dev = load_locomo_dev(data)
    progress("equivalence: the dev split message by message against whole sessions")
    with Memory(embedder="none") as whole, Memory(embedder="none") as live:
        whole.ingest(dev.sessions)
        replay_messages(live, dev.sessions)
        outcome = compare(whole, live)
    report = LiveReport(
        len(dev.sessions), sum(len(s.turns) for s in dev.sessions), outcome.facts_whole, outcome.differences
    )
    with tempfile.TemporaryDirectory() as scratch:
        for size in sizes:
            progress(f"{size:,} turns: building the store, then {adds} adds and {forgets} forgets")
            report.sizes.append(_size_figures(Path(scratch) / f"live{size}.db", dev.sessions, size, adds, forgets))
        if embedder != "none":
            smallest = min(sizes)
            progress(f"{smallest:,} turns with {embedder}: adds against embedding alone, search after adds")
            report.embedded = _embed_figures(Path(scratch) / "embed.db", dev.sessions, smallest, adds, embedder)
            questions = cycle_questions(dev.questions, searches)
            report.search = _search_figures(Path(scratch) / "embed.db", dev.sessions, smallest, embedder, questions)
    return report


def split_messages(
    sessions: Sequence[Session], size: int, count: int
) -> tuple[list[Session], list[Message], list[str]]:
    """A corpus of ``size`` turns, and ``count`` messages of sessions outside it, each with its session id."""
    corpus = build_corpus(sessions, size)
    held = {s.session_id.split("#r")[0] for s in corpus}
    fresh = [s for s in sessions if s.session_id not in held] or list(sessions)
    messages: list[Message] = []
    session_ids: list[str] = []
    for session in fresh * (1 + count // max(1, sum(len(s.turns) for s in fresh))):
        for turn in session.turns:
            if len(messages) == count:
                return corpus, messages, session_ids
            messages.append(Message(turn.speaker, turn.text, timestamp=session.timestamp, caption=turn.caption))
            session_ids.append(f"{session.session_id}#live{len(messages) // 1000}")
    return corpus, messages, session_ids


def _size_figures(db: Path, sessions: Sequence[Session], size: int, adds: int, forgets: int) -> SizeFigures:
    corpus, messages, session_ids = split_messages(sessions, size, adds)
    with Memory(db, user=BENCH_USER, embedder="none") as memory:
        memory.ingest(corpus)
        seconds = []
        for message, session_id in zip(messages, session_ids, strict=True):
            began = time.perf_counter()
            memory.add(message, session_id=session_id)
            seconds.append(time.perf_counter() - began)
        forget_seconds = []
        for session in corpus[:forgets]:
            began = time.perf_counter()
            memory.forget(session_id=session.session_id)
            forget_seconds.append(time.perf_counter() - began)
    return SizeFigures(size, Percentiles.of(seconds), statistics.median(forget_seconds) * 1000, len(forget_seconds))


def _embed_figures(db: Path, sessions: Sequence[Session], size: int, adds: int, embedder: str) -> EmbedFigures:
    corpus, messages, session_ids = split_messages(sessions, size, adds)
    with Memory(db, user=BENCH_USER, embedder=embedder) as memory:
        assert memory.embedder is not None
        memory.ingest(corpus)
        memory.search("warm up the model", k=1)
        add_s, embed_s = [], []
        for message, session_id in zip(messages, session_ids, strict=True):
            texts = [turn_embedding_text(message.speaker, message.text, message.caption)]
            texts += [piece_embedding_text(message.speaker, p.text) for p in split_pieces(message.text)]
            began = time.perf_counter()
            memory.embedder.embed(texts)  # the same texts, outside the memory: what the model alone costs
            embed_s.append(time.perf_counter() - began)
            began = time.perf_counter()
            memory.add(message, session_id=session_id)
            add_s.append(time.perf_counter() - began)
    overhead = [max(0.0, a - e) for a, e in zip(add_s, embed_s, strict=True)]
    return EmbedFigures(embedder, Percentiles.of(add_s), Percentiles.of(embed_s), Percentiles.of(overhead))


def _search_figures(
    db: Path, sessions: Sequence[Session], size: int, embedder: str, questions: Sequence[str]
) -> SearchFigures:
    _, messages, session_ids = split_messages(sessions, size, len(questions))
    with (
        Memory(db, user=BENCH_USER, embedder=embedder) as searcher,
        Memory(db, user=BENCH_USER, embedder=embedder) as writer,
    ):
        turns = searcher.stats()[0].turns
        for question in questions[:10]:
            searcher.search(question)
        quiet, after = [], []
        for question in questions:
            began = time.perf_counter()
            searcher.search(question)
            quiet.append(time.perf_counter() - began)
        for question, message, session_id in zip(questions, messages, session_ids, strict=True):
            writer.add(message, session_id=f"{session_id}-other")
            began = time.perf_counter()
            searcher.search(question)
            after.append(time.perf_counter() - began)
    return SearchFigures(turns, embedder, Percentiles.of(quiet), Percentiles.of(after))


def render_live_markdown(report: LiveReport) -> str:
    lines = [
        f"Equivalence: {report.sessions} dev sessions ({report.turns:,} turns) added message by message against"
        f" ingested whole: {report.facts_whole} facts, {report.facts_differing} differ.",
        "",
        "| store turns | add p50 / p95 ms (no embedder) | forget one session, median ms |",
        "|---|---|---|",
    ]
    for s in report.sizes:
        lines.append(f"| {s.turns:,} | {s.add.p50_ms:.1f} / {s.add.p95_ms:.1f} | {s.forget_ms:.0f} |")
    if report.embedded is not None:
        e = report.embedded
        lines += [
            "",
            f"With {e.embedder} ({e.add.n} new messages): add p50 / p95 {e.add.p50_ms:.1f} / {e.add.p95_ms:.1f} ms;"
            f" the embedder alone on the same texts {e.embed_only.p50_ms:.1f} / {e.embed_only.p95_ms:.1f} ms;"
            f" add minus embedding p50 / p95 {e.overhead.p50_ms:.1f} / {e.overhead.p95_ms:.1f} ms.",
        ]
    if report.search is not None:
        q = report.search
        lines += [
            "",
            f"Search at {q.turns:,} turns ({q.embedder}): p50 / p95 {q.quiet.p50_ms:.1f} / {q.quiet.p95_ms:.1f} ms"
            f" with no write between; {q.after_add.p50_ms:.1f} / {q.after_add.p95_ms:.1f} ms right after another"
            f" connection's add ({q.after_add.p50_ms / q.quiet.p50_ms:.2f}x).",
        ]
    return "\n".join(lines) + "\n"
