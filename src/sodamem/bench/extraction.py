"""What fact extraction yields on a dialogue set: facts per 100 turns, resolved times, throughput, time accuracy.

Counted per run: candidates the extractor proposed, those rejected because their quote is not in the turn (by the
extractor itself or by the pipeline's grounding), turns an LLM extractor could not read, and the grounded facts,
with the share that got a resolved occurrence time. With hand labels (``extraction_labels.py``) the run also
reports the precision of its labelled facts. The time resolver is also timed alone over the same pieces, and scored
on both hand-resolved phrase tables.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from sodamem.bench.extraction_labels import FactLabel, FactRecord, LabelScore, score_labels
from sodamem.bench.timeparse_eval import resolver_throughput, table_accuracies
from sodamem.ingest.extract.base import Extractor
from sodamem.ingest.facts import PreparedFact, prepare_facts
from sodamem.ingest.pieces import split_pieces
from sodamem.ingest.pipeline import session_view
from sodamem.model import Session


@dataclass(slots=True)
class ExtractionReport:
    extractor: str
    sessions: int = 0
    turns: int = 0
    pieces: int = 0
    candidates: int = 0  # passed the extractor's own checks
    proposed: int = 0  # candidates + those the extractor dropped (an LLM's reply, before any check)
    ungrounded: int = 0  # proposals whose quote is not in the turn (dropped by the extractor or by grounding)
    failed_turns: int = 0  # turns the extractor could not read (LLM request or reply failed)
    facts: int = 0  # grounded
    rejected: int = 0  # every reason a proposal or turn yielded no fact
    with_occurred_time: int = 0
    seconds: float = 0.0
    time_table_rows: int = 0
    time_table_accuracy: float = 0.0
    grammar_table_rows: int = 0
    grammar_table_accuracy: float = 0.0
    heldout_table_rows: int = 0
    heldout_table_accuracy: float = 0.0
    blind2_table_rows: int = 0
    blind2_table_accuracy: float = 0.0
    blind3_table_rows: int = 0
    blind3_table_accuracy: float = 0.0
    blind4_table_rows: int = 0
    blind4_table_accuracy: float = 0.0
    blind5_table_rows: int = 0
    blind5_table_accuracy: float = 0.0
    blind6_table_rows: int = 0
    blind6_table_accuracy: float = 0.0
    resolver_pieces_per_second: float = 0.0  # find_times alone over the same pieces
    by_kind: dict[str, int] = field(default_factory=dict)
    by_predicate: dict[str, int] = field(default_factory=dict)
    samples: list[dict[str, str]] = field(default_factory=list)
    labels: LabelScore | None = None
    notes: dict[str, Any] = field(default_factory=dict)  # the slice, the LLM's model, requests and tokens
    records: list[FactRecord] = field(default_factory=list)  # every fact (for --facts-out); not in to_dict

    @property
    def facts_per_100_turns(self) -> float:
        return 100 * self.facts / self.turns if self.turns else 0.0

    @property
    def ungrounded_share(self) -> float:
        return self.ungrounded / self.proposed if self.proposed else 0.0

    @property
    def occurred_share(self) -> float:
        return self.with_occurred_time / self.facts if self.facts else 0.0

    @property
    def pieces_per_second(self) -> float:
        return self.pieces / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("records")
        labels = None
        if self.labels is not None:
            labels = {**asdict(self.labels), "precision": self.labels.precision}
        return {
            **data,
            "labels": labels,
            "facts_per_100_turns": round(self.facts_per_100_turns, 2),
            "ungrounded_share": round(self.ungrounded_share, 3),
            "occurred_share": round(self.occurred_share, 3),
            "pieces_per_second": round(self.pieces_per_second, 1),
            "resolver_pieces_per_second": round(self.resolver_pieces_per_second, 1),
        }


def measure_extraction(
    sessions: Sequence[Session],
    extractor: Extractor,
    samples: int = 15,
    *,
    labels: Sequence[FactLabel] | None = None,
    resolver: bool = True,
) -> ExtractionReport:
    """Extract, ground and time-resolve every session (no store): the ingest path's fact work, timed.

    ``labels``: score the run's labelled facts. ``resolver=False`` skips timing the time resolver and scoring the
    phrase tables (they do not depend on the extractor)."""
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
        report.proposed += len(extraction.facts) + extraction.dropped
        # prepare_facts passes the extractor's own reasons on first; the rest are grounding's refusals.
        report.ungrounded += extraction.ungrounded + len(prepared.rejected) - len(extraction.skipped)
        report.failed_turns += extraction.failed_turns
        report.facts += len(prepared.facts)
        report.rejected += len(prepared.rejected)
        for fact in prepared.facts:
            report.records.append(_record(extractor.name, session, fact))
            report.with_occurred_time += fact.occurred is not None
            kinds[fact.candidate.kind.value] += 1
            predicates[fact.candidate.predicate] += 1
            if len(report.samples) < samples and len(report.records) % 7 == 1:
                report.samples.append({"quote": fact.spans[0].quote, "text": fact.candidate.text})
    report.seconds = time.perf_counter() - started
    if resolver:
        report.resolver_pieces_per_second = resolver_throughput(anchored)
        accuracies = table_accuracies()
        report.time_table_rows, report.time_table_accuracy = accuracies["basic"]
        report.grammar_table_rows, report.grammar_table_accuracy = accuracies["grammar"]
        report.heldout_table_rows, report.heldout_table_accuracy = accuracies["heldout"]
        report.blind2_table_rows, report.blind2_table_accuracy = accuracies["blind2"]
        report.blind3_table_rows, report.blind3_table_accuracy = accuracies["blind3"]
        report.blind4_table_rows, report.blind4_table_accuracy = accuracies["blind4"]
        report.blind5_table_rows, report.blind5_table_accuracy = accuracies["blind5"]
        report.blind6_table_rows, report.blind6_table_accuracy = accuracies["blind6"]
    if labels is not None:
        report.labels = score_labels(labels, report.records, extractor.name)
    report.by_kind = dict(kinds.most_common())
    report.by_predicate = dict(predicates.most_common(15))
    return report


def _record(extractor: str, session: Session, fact: PreparedFact) -> FactRecord:
    candidate = fact.candidate
    turn = session.turns[candidate.turn_index]
    return FactRecord(
        extractor=extractor,
        session=session.session_id,
        turn=turn.turn_id,
        speaker=turn.speaker,
        turn_text=turn.text,
        quote=fact.spans[0].quote if len(fact.spans) == 1 else candidate.quote,
        fact=candidate.text,
        kind=candidate.kind.value,
        time_expression=candidate.time_expression,
        occurred=fact.occurred.start.isoformat() if fact.occurred is not None else None,
    )


def render_extraction_markdown(report: ExtractionReport, title: str) -> str:
    precision = "not labelled"
    if report.labels is not None and report.labels.precision is not None:
        precision = f"{report.labels.precision:.0%} of {report.labels.labelled}"
    lines = [
        f"## Fact extraction: {title} ({report.extractor})",
        "",
        "| sessions | turns | pieces | proposed | quote not in turn | facts | facts / 100 turns | with occurred time |"
        " failed turns | precision (hand labels) | pieces/s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        f"| {report.sessions} | {report.turns} | {report.pieces} | {report.proposed} |"
        f" {report.ungrounded} ({report.ungrounded_share:.1%}) | {report.facts} | {report.facts_per_100_turns:.1f} |"
        f" {report.occurred_share:.1%} | {report.failed_turns} | {precision} | {report.pieces_per_second:.0f} |",
        "",
    ]
    if report.labels is not None and report.labels.unmatched:
        lines += [f"{report.labels.unmatched} labels of this extractor matched no fact of this run.", ""]
    if report.notes:
        lines += ["Run: " + ", ".join(f"{k} {v}" for k, v in report.notes.items()), ""]
    if report.time_table_rows:
        lines += [
            "| time-phrase table | rows | accuracy |",
            "|---|---|---|",
            f"| basic (`bench/time_phrases.py`) | {report.time_table_rows} | {report.time_table_accuracy:.1%} |",
            f"| grammar (`bench/time_phrases_grammar.py`) | {report.grammar_table_rows} |"
            f" {report.grammar_table_accuracy:.1%} |",
            f"| held-out (`bench/time_phrases_heldout.py`) | {report.heldout_table_rows} |"
            f" {report.heldout_table_accuracy:.1%} |",
            f"| second blind (`bench/time_phrases_blind2.py`) | {report.blind2_table_rows} |"
            f" {report.blind2_table_accuracy:.1%} |",
            f"| third blind (`bench/time_phrases_blind3.py`) | {report.blind3_table_rows} |"
            f" {report.blind3_table_accuracy:.1%} |",
            f"| fourth blind (`bench/time_phrases_blind4.py`) | {report.blind4_table_rows} |"
            f" {report.blind4_table_accuracy:.1%} |",
            f"| fifth blind (`bench/time_phrases_blind5.py`) | {report.blind5_table_rows} |"
            f" {report.blind5_table_accuracy:.1%} |",
            f"| sixth blind (`bench/time_phrases_blind6.py`) | {report.blind6_table_rows} |"
            f" {report.blind6_table_accuracy:.1%} |",
            "",
            "Time resolver alone (`find_times` over the same pieces, best of 3):"
            f" {report.resolver_pieces_per_second:,.0f} pieces/s.",
            "",
        ]
    lines += [
        "Kinds: " + ", ".join(f"{k} {n}" for k, n in report.by_kind.items()),
        "",
        "Top predicates: " + ", ".join(f"{k} {n}" for k, n in report.by_predicate.items()),
        "",
        "Samples (quote → fact):",
        "",
        *[f"- “{s['quote']}” → {s['text']}" for s in report.samples],
    ]
    return "\n".join(lines) + "\n"
