"""Embedder speed on LoCoMo texts (``sodamem bench embed``): ingest throughput per CPU-second and per wall second,
the CPU of a one-text query, and the cold start (a fresh interpreter, from ``import sodamem`` to the first vector).

Texts are what ingest embeds (``speaker: text`` turns and their pieces, distinct, in file order), embedded 256 at a
time as ingest hands them over; queries are the LoCoMo questions, one at a time as a search embeds them. With
``--reference`` the same figures for all-MiniLM-L6-v2 in numpy and on sentence-transformers (torch), in the same
run, and the largest difference between each one's vectors and the first backend's. Thread counts are the
process's own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from sodamem.bench.perf import load_locomo_dev
from sodamem.embed import load_embedder
from sodamem.embed.base import Embedder, Vectors
from sodamem.ingest.embedding import BATCH
from sodamem.ingest.pieces import split_pieces
from sodamem.store.sqlite import piece_embedding_text, turn_embedding_text

# MiniLM's other runtimes, by the names this bench gives them: not specs (they share the model name), only here.
TORCH_REFERENCE = "minilm-torch"
NUMPY_REFERENCE = "minilm-numpy"

_COLD = """
import json, sys, time
start = time.perf_counter()
backend = sys.argv[1]
if backend == "minilm-torch":
    from sodamem.embed.minilm import SentenceTransformerEmbedder
    embedder = SentenceTransformerEmbedder()
elif backend == "minilm-numpy":
    from sodamem.embed.minilm import MiniLMEmbedder
    embedder = MiniLMEmbedder(runtime="numpy")
else:
    from sodamem.embed import load_embedder
    embedder = load_embedder(backend)
embedder.embed(["the first query of a fresh process"])
seconds = time.perf_counter() - start
heavy = [m for m in ("torch", "transformers", "sentence_transformers", "onnxruntime") if m in sys.modules]
print(json.dumps({"seconds": seconds, "imported": heavy}))
"""


@dataclass(frozen=True, slots=True)
class EmbedSpeed:
    backend: str
    texts: int
    texts_per_cpu_s: float
    texts_per_s: float
    queries: int
    query_cpu_ms_p50: float
    query_cpu_ms_p95: float
    cold_start_s: float
    cold_imports: list[str]


def locomo_texts(path: Path, texts: int, queries: int) -> tuple[list[str], list[str]]:
    """The first ``texts`` distinct ingest texts and the first ``queries`` questions of a LoCoMo file."""
    dev = load_locomo_dev(path)
    chosen: dict[str, None] = {}
    for session in dev.sessions:
        for turn in session.turns:
            chosen[turn_embedding_text(turn.speaker, turn.text, turn.caption)] = None
            for piece in split_pieces(turn.text):
                chosen[piece_embedding_text(turn.speaker, piece.text)] = None
            if len(chosen) >= texts:
                break
        if len(chosen) >= texts:
            break
    return list(chosen)[:texts], list(dev.questions[:queries])


def make_embedder(backend: str) -> Embedder:
    if backend == TORCH_REFERENCE:
        from sodamem.embed.minilm import SentenceTransformerEmbedder

        return SentenceTransformerEmbedder()
    if backend == NUMPY_REFERENCE:
        from sodamem.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder(runtime="numpy")
    return load_embedder(backend)


def cold_start(backend: str) -> tuple[float, list[str]]:
    """Seconds from a fresh interpreter's first import of sodamem to its first vector, and the heavy modules it
    imported on the way."""
    out = subprocess.run([sys.executable, "-c", _COLD, backend], capture_output=True, text=True, check=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return float(result["seconds"]), list(result["imported"])


def measure(backend: str, texts: Sequence[str], queries: Sequence[str]) -> tuple[EmbedSpeed, Vectors]:
    cold_seconds, imported = cold_start(backend)
    embedder = make_embedder(backend)
    embedder.embed(["warm up the model"])
    embedder.embed(list(texts[:8]))
    cpu, wall = time.process_time(), time.perf_counter()
    vectors = np.vstack([embedder.embed(list(texts[i : i + BATCH])) for i in range(0, len(texts), BATCH)])
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    query_ms = []
    for query in queries:
        start = time.process_time()
        embedder.embed([query])
        query_ms.append((time.process_time() - start) * 1000)
    speed = EmbedSpeed(
        backend=backend,
        texts=len(texts),
        texts_per_cpu_s=len(texts) / cpu if cpu > 0 else float("inf"),
        texts_per_s=len(texts) / wall if wall > 0 else float("inf"),
        queries=len(queries),
        query_cpu_ms_p50=float(np.median(query_ms)),
        query_cpu_ms_p95=float(np.percentile(query_ms, 95)),
        cold_start_s=cold_seconds,
        cold_imports=imported,
    )
    return speed, vectors


def run_embed_speed(path: Path, backends: Sequence[str], texts: int, queries: int) -> dict[str, object]:
    chosen, questions = locomo_texts(path, texts, queries)
    results, vectors = [], []
    for backend in backends:
        speed, vecs = measure(backend, chosen, questions)
        results.append(asdict(speed))
        vectors.append(vecs)
    report: dict[str, object] = {"data": str(path), "results": results}
    if len(vectors) > 1:
        pairs = zip(backends[1:], vectors[1:], strict=True)
        report["max_abs_diff"] = {backend: float(np.abs(vectors[0] - vecs).max()) for backend, vecs in pairs}
    return report


def render_embed_speed(report: dict[str, object]) -> str:
    lines = [
        "| backend | texts | texts/CPU-s | texts/s | query CPU ms p50 | p95 | cold start s | heavy imports |",
        "|---|---|---|---|---|---|---|---|",
    ]
    results = report["results"]
    assert isinstance(results, list)
    for r in results:
        lines.append(
            f"| {r['backend']} | {r['texts']} | {r['texts_per_cpu_s']:.0f} | {r['texts_per_s']:.0f} "
            f"| {r['query_cpu_ms_p50']:.1f} | {r['query_cpu_ms_p95']:.1f} | {r['cold_start_s']:.2f} "
            f"| {', '.join(r['cold_imports']) or 'none'} |"
        )
    diffs = report.get("max_abs_diff")
    if isinstance(diffs, dict):
        lines.append("")
        for backend, diff in diffs.items():
            lines.append(f"Largest difference between {results[0]['backend']}'s vectors and {backend}'s: {diff:.2e}")
    return "\n".join(lines) + "\n"
