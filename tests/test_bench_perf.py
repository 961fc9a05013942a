"""The performance bench on a tiny LoCoMo-shaped fixture: structure and bookkeeping, never timings."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from typing import Any

import pytest

from sodamem import Memory
from sodamem.bench.contention import busy_core
from sodamem.bench.perf import build_corpus, load_locomo_dev, run_perf
from sodamem.bench.perf_report import plot_perf, render_perf_markdown
from sodamem.bench.perf_types import PerfReport

SIZES = (20, 50)
QUERIES = 10


def _session(number: int, speakers: tuple[str, str], topic: str, turns: int) -> list[dict[str, Any]]:
    return [
        {
            "speaker": speakers[i % 2],
            "dia_id": f"D{number}:{i + 1}",
            "text": f"{speakers[i % 2]} talks about {topic} again, part {i}. It was fun! Did you like {topic}?",
        }
        for i in range(turns)
    ]


def _conversation(sample_id: str, speakers: tuple[str, str], topics: list[str]) -> dict[str, Any]:
    conversation: dict[str, Any] = {"speaker_a": speakers[0], "speaker_b": speakers[1]}
    for n, topic in enumerate(topics, start=1):
        conversation[f"session_{n}_date_time"] = f"1:56 pm on {n} May, 2023"
        conversation[f"session_{n}"] = _session(n, speakers, topic, 3 + n)
    qa = [
        {"question": f"When did {speakers[0]} talk about {t}?", "answer": "May", "evidence": ["D1:1"], "category": 2}
        for t in topics
    ]
    return {
        "sample_id": sample_id,
        "conversation": conversation,
        "qa": qa,
        "event_summary": {},
        "observation": {},
        "session_summary": {},
    }


@pytest.fixture(scope="module")
def locomo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = [
        _conversation("conv-x", ("Caroline", "Melanie"), ["kayaking", "pottery", "camping"]),
        _conversation("conv-y", ("Jon", "Gina"), ["dancing", "bakery"]),
    ]
    path = tmp_path_factory.mktemp("locomo") / "locomo_tiny.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def report(locomo_file: Path, tmp_path_factory: pytest.TempPathFactory) -> PerfReport:
    messages: list[str] = []
    result = run_perf(
        locomo_file,
        SIZES,
        "fake",
        QUERIES,
        workdir=tmp_path_factory.mktemp("perf"),
        progress=messages.append,
    )
    assert messages
    return result


def test_corpus_has_exactly_size_turns_with_unique_ids(locomo_file: Path) -> None:
    dev = load_locomo_dev(locomo_file)
    one_pass = sum(len(s.turns) for s in dev.sessions)
    assert one_pass == 4 + 5 + 6 + 4 + 5
    for size in (1, 7, one_pass, one_pass + 1, 50, 3 * one_pass + 2):
        corpus = build_corpus(dev.sessions, size)
        assert sum(len(s.turns) for s in corpus) == size
        keys = [(s.session_id, t.turn_id) for s in corpus for t in s.turns]
        assert len(keys) == len(set(keys)) == size
        assert len({s.session_id for s in corpus}) == len(corpus)
        assert all("#r" in s.session_id for s in corpus)
        assert len({s.user for s in corpus}) == 1
        for session in corpus:
            assert [t.index for t in session.turns] == list(range(len(session.turns)))


def test_corpus_ingests_as_size_turns(locomo_file: Path, tmp_path: Path) -> None:
    corpus = build_corpus(load_locomo_dev(locomo_file).sessions, 50)
    with Memory(tmp_path / "m.db", embedder="none") as memory:
        report = memory.ingest(corpus)
        assert report.turns_added == 50
        assert report.sessions_added == len(corpus)


def test_build_corpus_rejects_bad_size(locomo_file: Path) -> None:
    with pytest.raises(ValueError):
        build_corpus(load_locomo_dev(locomo_file).sessions, 0)


def test_report_structure(report: PerfReport) -> None:
    assert report.sizes == list(SIZES)
    assert report.embed_sizes == list(SIZES)
    assert report.embedder == "fake"
    assert [r.size for r in report.results] == list(SIZES)
    for result in report.results:
        ingest = result.ingest
        assert ingest.turns == result.size
        assert ingest.turns_per_s > 0 and ingest.pieces_per_s > 0
        assert ingest.pieces >= ingest.turns
        assert ingest.db_mb > 0 and ingest.db_mb_per_1k_turns > 0
        embedded = result.embed_ingest
        assert embedded is not None
        assert embedded.turns == result.size
        assert embedded.turns_per_s > 0 and embedded.pieces_per_s > 0 and embedded.texts_embedded_per_s > 0
        assert 0 < embedded.texts_embedded <= embedded.texts_total == embedded.turns + embedded.pieces
        assert embedded.db_mb > ingest.db_mb  # the vectors take room
        assert result.search.database == "embedded"
        assert [f.mode for f in result.search.latency] == ["bm25", "sodamem"]
        for figures in result.search.latency:
            assert figures.queries == QUERIES
            assert 0 < figures.p50_ms <= figures.p95_ms <= figures.max_ms
            assert figures.mean_ms > 0
        assert result.search.peak_rss_mb > 0
        assert result.process_peak_rss_mb > 0
    peaks = [r.process_peak_rss_mb for r in report.results]
    assert peaks == sorted(peaks)
    # The second size replays the first conversations: their texts are cache hits, so fewer are new per turn.
    small, large = (r.embed_ingest for r in report.results)
    assert small is not None and large is not None
    assert large.texts_embedded < large.texts_total
    assert report.embedding is not None and report.embedding.texts > 0 and report.embedding.texts_per_s > 0


def test_latency_ratios(report: PerfReport) -> None:
    ratios = {(q.size, q.mode): q for q in report.latency_ratios}
    assert set(ratios) == {(s, m) for s in SIZES for m in ("bm25", "sodamem")}
    for mode in ("bm25", "sodamem"):
        base = ratios[(SIZES[0], mode)]
        assert base.p50 == base.p95 == base.mean == 1.0
        big = ratios[(SIZES[1], mode)]
        first, last = (r.search.mode(mode) for r in report.results)
        assert first is not None and last is not None
        assert big.p50 == pytest.approx(last.p50_ms / first.p50_ms)
        assert math.isfinite(big.p95) and big.p95 > 0


def test_to_dict_is_json(report: PerfReport) -> None:
    data = json.loads(json.dumps(report.to_dict()))
    assert [r["size"] for r in data["results"]] == list(SIZES)
    assert data["results"][0]["search"]["latency"][0]["mode"] == "bm25"


def test_markdown_names_the_sizes(report: PerfReport) -> None:
    markdown = render_perf_markdown(report)
    for size in SIZES:
        assert f"| {size:,} |" in markdown
    for heading in ("Ingest without embeddings", "Ingest with embeddings", "Search latency", "Peak memory"):
        assert heading in markdown


def test_contended_run_repeats_every_search_with_a_core_busy(report: PerfReport) -> None:
    for result in report.results:
        busy = result.contended
        assert busy is not None and busy.database == result.search.database
        assert [f.mode for f in busy.latency] == [f.mode for f in result.search.latency]
        assert all(f.queries == QUERIES and f.p50_ms > 0 for f in busy.latency)
    markdown = render_perf_markdown(report)
    assert "Search with one core busy" in markdown
    assert markdown.count("x |") >= 2 * len(SIZES)  # a contended/idle ratio per size and mode


def test_busy_core_spins_another_process_and_stops_it() -> None:
    import os
    import time

    def cpu_seconds(pid: int) -> float:  # utime + stime of /proc/<pid>/stat, in clock ticks
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    with busy_core() as pid:
        assert pid != os.getpid()
        before, ours = cpu_seconds(pid), time.process_time()
        # It burns CPU (a loaded machine gives it a slice only now and then: wait for 0.1 s of it, up to 30 s)...
        burnt_by = time.monotonic() + 30
        while cpu_seconds(pid) - before <= 0.1 and time.monotonic() < burnt_by:
            time.sleep(0.1)
        assert cpu_seconds(pid) - before > 0.1
        assert time.process_time() - ours < 0.1  # ...and this process, which waits, does not
    deadline = time.monotonic() + 5
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists()


def test_lexical_only(locomo_file: Path, tmp_path: Path) -> None:
    report = run_perf(locomo_file, (30,), None, 6, workdir=tmp_path, contended=False)
    (result,) = report.results
    assert result.contended is None
    assert result.embed_ingest is None and report.embedding is None
    assert result.search.database == "lexical"
    assert [f.mode for f in result.search.latency] == ["bm25"]
    assert "Ingest with embeddings" not in render_perf_markdown(report)
    assert not list(tmp_path.glob("*.db"))  # databases are removed unless kept


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="matplotlib not installed")
def test_plot_is_written(report: PerfReport, tmp_path: Path) -> None:
    path = plot_perf(report, tmp_path / "plots" / "latency.png")
    assert path.exists() and path.stat().st_size > 1000
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_search_process_reports_its_own_peak(report: PerfReport) -> None:
    for result in report.results:
        search = result.search
        assert search.peak_rss_source in ("VmHWM", "ru_maxrss")
        assert search.peak_rss_mb > 0
        if search.peak_rss_source == "VmHWM":
            assert search.peak_rss_mb <= search.ru_maxrss_mb + 1  # ru_maxrss also counts the parent's peak
            assert 0 < search.rss_after_model_mb <= search.peak_rss_mb + 1  # before any search, under the peak


def test_append_bench_appends_what_one_session_added(locomo_file: Path) -> None:
    from sodamem.bench.append import measure_append, render_append_markdown

    timings = measure_append(locomo_file, 300)
    assert [t.table for t in timings] == ["turns", "pieces"]
    turns = timings[0]
    assert 0 < turns.rows_before < turns.rows_after == 300  # the last session's turns were appended
    assert all(t.append_ms >= 0 and t.rebuild_ms > 0 for t in timings)
    assert "rebuild / append" in render_append_markdown(timings, 300, "fake")


def test_bench_embed_reports_speed_and_cold_start(locomo_file: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sodamem.bench.cli import bench
    from sodamem.bench.embed_speed import locomo_texts

    texts, questions = locomo_texts(locomo_file, 7, 3)
    assert len(texts) == 7 and len(set(texts)) == 7 and len(questions) == 3
    assert texts[0].startswith("Caroline: ")
    out = tmp_path / "embed.json"
    args = ["embed", "--data", str(locomo_file), "--embedder", "fake", "--texts", "7", "--queries", "3"]
    result = CliRunner().invoke(bench, [*args, "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "| fake |" in result.output
    (row,) = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert (row["backend"], row["texts"], row["queries"], row["cold_imports"]) == ("fake", 7, 3, [])
    assert row["texts_per_cpu_s"] > 0 and row["cold_start_s"] > 0
