"""The performance bench's report: markdown tables and a latency plot."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sodamem.bench.perf_types import WARMUP_QUERIES, PerfReport


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" for _ in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


def render_perf_markdown(report: PerfReport) -> str:
    """One markdown table per measure."""
    out: list[str] = [
        "# SodaMem performance",
        "",
        f"Corpus: LoCoMo dev ({report.corpus_sessions} sessions, {report.corpus_turns:,} turns) replayed to each "
        f"size; embedder: {report.embedder or 'none'}; {report.queries} queries per mode (k={report.k}, "
        f"{WARMUP_QUERIES} warm-up). Machine: {report.machine.get('cpus', '?')} CPUs, "
        f"Python {report.machine.get('python', '?')}, load average {report.machine.get('load_before', '?')} before and "
        f"{report.machine.get('load_after', '?')} after. Total {report.seconds:.0f} s.",
        "",
        "## Ingest without embeddings",
        "",
    ]
    out += _table(
        ["turns", "sessions", "pieces", "seconds", "turns/s", "pieces/s", "DB MB", "MB / 1k turns"],
        [
            [
                f"{r.size:,}",
                f"{r.ingest.sessions:,}",
                f"{r.ingest.pieces:,}",
                f"{r.ingest.seconds:.2f}",
                f"{r.ingest.turns_per_s:,.0f}",
                f"{r.ingest.pieces_per_s:,.0f}",
                f"{r.ingest.db_mb:.1f}",
                f"{r.ingest.db_mb_per_1k_turns:.2f}",
            ]
            for r in report.results
        ],
    )
    embedded = [(r, r.embed_ingest) for r in report.results if r.embed_ingest is not None]
    if embedded:
        out += [
            "",
            f"## Ingest with embeddings ({report.embedder})",
            "",
            "Rates include embedding time. Replayed texts hit the (model, text hash) cache: *distinct* counts the "
            "texts the model ran on, *texts* every turn and piece that got a vector.",
            "",
        ]
        out += _table(
            [
                "turns",
                "seconds",
                "embed s",
                "turns/s",
                "pieces/s",
                "texts",
                "distinct",
                "distinct/s",
                "MB / 1k turns",
            ],
            [
                [
                    f"{r.size:,}",
                    f"{e.seconds:.1f}",
                    f"{e.embed_seconds:.1f}",
                    f"{e.turns_per_s:,.0f}",
                    f"{e.pieces_per_s:,.0f}",
                    f"{e.texts_total:,}",
                    f"{e.texts_embedded:,}",
                    f"{e.texts_embedded_per_s:,.0f}",
                    f"{e.db_mb_per_1k_turns:.2f}",
                ]
                for r, e in embedded
            ],
        )
    ratios = {(q.size, q.mode): q for q in report.latency_ratios}
    out += ["", "## Search latency", "", "Ratios: the same mode at the smallest size = 1.", ""]
    rows: list[list[str]] = []
    for r in report.results:
        for f in r.search.latency:
            q = ratios.get((r.size, f.mode))
            rows.append(
                [
                    f"{r.size:,}",
                    f.mode,
                    f"{f.p50_ms:.2f}",
                    f"{f.p95_ms:.2f}",
                    f"{f.mean_ms:.2f}",
                    f"{q.p50:.2f}x" if q else "",
                    f"{q.p95:.2f}x" if q else "",
                ]
            )
    out += _table(["turns", "mode", "p50 ms", "p95 ms", "mean ms", "p50 ratio", "p95 ratio"], rows)
    out += _contended_section(report)
    out += [
        "",
        "## Peak memory",
        "",
        "Search process: a fresh spawned interpreter that opens the database, loads the model and runs the queries "
        "(its own high-water mark); *after model load*: its resident size before the first search, so the peak "
        "minus it is the vector index, caches and queries. Bench process: ru_maxrss of the process that ingests, "
        "monotone across sizes.",
        "",
    ]
    out += _table(
        [
            "turns",
            "search process peak RSS MB",
            "after model load MB",
            "source",
            "searched DB",
            "model load s",
            "bench process peak RSS MB",
        ],
        [
            [
                f"{r.size:,}",
                f"{r.search.peak_rss_mb:,.0f}",
                f"{r.search.rss_after_model_mb:,.0f}",
                r.search.peak_rss_source,
                r.search.database,
                f"{r.search.model_load_seconds:.2f}",
                f"{r.process_peak_rss_mb:,.0f}",
            ]
            for r in report.results
        ],
    )
    if report.embedding is not None:
        e = report.embedding
        out += ["", "## Embedding throughput", ""]
        out += _table(
            ["model", "texts", "seconds", "texts/s"],
            [[e.model, f"{e.texts:,}", f"{e.seconds:.2f}", f"{e.texts_per_s:,.0f}"]],
        )
    return "\n".join(out) + "\n"


def plot_perf(report: PerfReport, path: Path) -> Path:
    """Search latency p50/p95 against corpus size (log x), one line per mode and percentile, as an image."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 4.5))
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    modes = list(dict.fromkeys(f.mode for r in report.results for f in r.search.latency))
    for number, mode in enumerate(modes):
        points = [(r.size, f) for r in report.results if (f := r.search.mode(mode)) is not None]
        sizes = [s for s, _ in points]
        color = f"C{number}"  # one colour per mode: solid p50, dashed p95
        axes.plot(sizes, [f.p50_ms for _, f in points], color=color, marker="o", label=f"{mode} p50")
        axes.plot(sizes, [f.p95_ms for _, f in points], color=color, marker="s", linestyle="--", label=f"{mode} p95")
    axes.set_xscale("log")
    axes.set_xlabel("turns in memory")
    axes.set_ylabel("search latency (ms)")
    axes.set_title(f"SodaMem search latency (embedder: {report.embedder or 'none'}, k={report.k})")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120, bbox_inches="tight")
    return path


# -- command line -------------------------------------------------------------------------------------------------


def _contended_section(report: PerfReport) -> list[str]:
    """Idle against one-core-busy search latency, per size and mode (ratios: contended over idle, same run)."""
    rows = []
    for r in report.results:
        if r.contended is None:
            continue
        for idle in r.search.latency:
            busy = r.contended.mode(idle.mode)
            if busy is None:
                continue
            rows.append(
                [
                    f"{r.size:,}",
                    idle.mode,
                    f"{idle.p50_ms:.2f}",
                    f"{busy.p50_ms:.2f}",
                    f"{busy.p50_ms / idle.p50_ms:.2f}x" if idle.p50_ms > 0 else "",
                    f"{idle.p95_ms:.2f}",
                    f"{busy.p95_ms:.2f}",
                    f"{busy.p95_ms / idle.p95_ms:.2f}x" if idle.p95_ms > 0 else "",
                ]
            )
    if not rows:
        return []
    header = ["turns", "mode", "idle p50 ms", "busy p50 ms", "p50 ratio", "idle p95 ms", "busy p95 ms", "p95 ratio"]
    intro = "The same queries in a second spawned process while another process keeps one core busy."
    return ["", "## Search with one core busy", "", intro, "", *_table(header, rows)]
