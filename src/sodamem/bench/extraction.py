"""What fact extraction yields on a dialogue set: facts per 100 turns, resolved times, throughput, time accuracy.

The time resolver is also timed alone over the same pieces, and scored on both hand-resolved phrase tables.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from sodamem.bench.timeparse_eval import resolver_throughput, table_accuracies
from sodamem.ingest.extract.base import Extractor
from sodamem.ingest.facts import prepare_facts
from sodamem.ingest.pieces import split_pieces
from sodamem.ingest.pipeline import session_view
from sodamem.model import Session


@dataclass(slots=True)
class ExtractionReport:
    extractor: str
    sessions: int = 0
    turns: int = 0
    pieces: int = 0
    candidates: int = 0
    facts: int = 0  # grounded
    rejected: int = 0
    with_occurred_time: int = 0
    seconds: float = 0.0
    time_table_rows: int = 0
    time_table_accuracy: float = 0.0
    grammar_table_rows: int = 0
    grammar_table_accuracy: float = 0.0
    resolver_pieces_per_second: float = 0.0  # find_times alone over the same pieces
    by_kind: dict[str, int] = field(default_factory=dict)
    by_predicate: dict[str, int] = field(default_factory=dict)
    samples: list[dict[str, str]] = field(default_factory=list)

    @property
    def facts_per_100_turns(self) -> float:
        return 100 * self.facts / self.turns if self.turns else 0.0

    @property
    def occurred_share(self) -> float:
        return self.with_occurred_time / self.facts if self.facts else 0.0

    @property
    def pieces_per_second(self) -> float:
        return self.pieces / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "facts_per_100_turns": round(self.facts_per_100_turns, 2),
            "occurred_share": round(self.occurred_share, 3),
            "pieces_per_second": round(self.pieces_per_second, 1),
            "resolver_pieces_per_second": round(self.resolver_pieces_per_second, 1),
        }


def measure_extraction(sessions: Sequence[Session], extractor: Extractor, samples: int = 15) -> ExtractionReport:
    """Extract, ground and time-resolve every session (no store): the ingest path's fact work, timed."""
    report = ExtractionReport(extractor=extractor.name)
    kinds: Counter[str] = Counter()
    predicates: Counter[str] = Counter()
    anchored: list[tuple[str, datetime]] = []
    started = time.perf_counter()
    for session in sessions:
        pieces = [split_pieces(turn.text) for turn in session.turns]
        for turn, turn_pieces in zip(session.turns, pieces, strict=True):
            anchored.extend((piece.text, turn.timestamp or session.timestamp) for piece in turn_pieces)
        extraction = extractor.extract(session_view(session, pieces))
        prepared = prepare_facts(session, pieces, extraction)
        report.sessions += 1
        report.turns += len(session.turns)
        report.pieces += sum(len(p) for p in pieces)
        report.candidates += len(extraction.facts)
        report.facts += len(prepared.facts)
        report.rejected += len(prepared.rejected)
        for fact in prepared.facts:
            report.with_occurred_time += fact.occurred is not None
            kinds[fact.candidate.kind.value] += 1
            predicates[fact.candidate.predicate] += 1
            if len(report.samples) < samples and report.facts % 7 == 0:
                report.samples.append({"quote": fact.spans[0].quote, "text": fact.candidate.text})
    report.seconds = time.perf_counter() - started
    report.resolver_pieces_per_second = resolver_throughput(anchored)
    accuracies = table_accuracies()
    report.time_table_rows, report.time_table_accuracy = accuracies["basic"]
    report.grammar_table_rows, report.grammar_table_accuracy = accuracies["grammar"]
    report.by_kind = dict(kinds.most_common())
    report.by_predicate = dict(predicates.most_common(15))
    return report


def render_extraction_markdown(report: ExtractionReport, title: str) -> str:
    lines = [
        f"## Fact extraction: {title} ({report.extractor})",
        "",
        "| sessions | turns | pieces | facts | facts / 100 turns | with occurred time | rejected | pieces/s |"
        " time-phrase accuracy |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {report.sessions} | {report.turns} | {report.pieces} | {report.facts} | {report.facts_per_100_turns:.1f} |"
        f" {report.occurred_share:.1%} | {report.rejected} | {report.pieces_per_second:.0f} |"
        f" {report.time_table_accuracy:.1%} of {report.time_table_rows} |",
        "",
        "| time-phrase table | rows | accuracy |",
        "|---|---|---|",
        f"| basic (`bench/time_phrases.py`) | {report.time_table_rows} | {report.time_table_accuracy:.1%} |",
        f"| grammar (`bench/time_phrases_grammar.py`) | {report.grammar_table_rows} |"
        f" {report.grammar_table_accuracy:.1%} |",
        "",
        f"Time resolver alone (`find_times` over the same pieces, best of 3): {report.resolver_pieces_per_second:,.0f}"
        " pieces/s.",
        "",
        "Kinds: " + ", ".join(f"{k} {n}" for k, n in report.by_kind.items()),
        "",
        "Top predicates: " + ", ".join(f"{k} {n}" for k, n in report.by_predicate.items()),
        "",
        "Samples (quote → fact):",
        "",
        *[f"- “{s['quote']}” → {s['text']}" for s in report.samples],
    ]
    return "\n".join(lines) + "\n"
