"""The int8 vector index: quantisation bounds, blocked scoring, and search equal to exact float32 brute force."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sodamem import Memory
from sodamem.store import vectors as vectors_module
from sodamem.store.vectors import VectorIndex, approximate_scores, quantize, top_k
from tests.conftest import make_session


def unit_rows(seed: int, n: int, dim: int) -> np.ndarray:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    rows = rng.standard_normal((n, dim)).astype(np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return (rows / np.where(norms > 0, norms, 1)).astype(np.float32)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), dim=st.integers(1, 64))
def test_quantisation_error_is_at_most_half_a_step(seed: int, n: int, dim: int) -> None:
    rows = unit_rows(seed, n, dim)
    codes, scales = quantize(rows)
    assert codes.dtype == np.int8 and scales.dtype == np.float32
    decoded = codes.astype(np.float32) * scales[:, None]
    assert np.all(np.abs(decoded - rows) <= scales[:, None] / 2 + 1e-7)
    assert np.all(np.abs(codes).max(axis=1) == 127)  # each row's largest magnitude uses the full range


def test_a_zero_row_quantises_to_zeros() -> None:
    codes, scales = quantize(np.zeros((2, 8), dtype=np.float32))
    assert not codes.any() and not scales.any()
    assert not approximate_scores(codes, scales, unit_rows(0, 1, 8)[0]).any()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 300), block=st.integers(1, 70))
def test_blocked_scores_equal_the_whole_product(seed: int, n: int, block: int) -> None:
    rows = unit_rows(seed, n, 24)
    query = unit_rows(seed + 1, 1, 24)[0]
    codes, scales = quantize(rows)
    whole = (codes.astype(np.float32) * scales[:, None]) @ query
    np.testing.assert_allclose(approximate_scores(codes, scales, query, block_rows=block), whole, atol=1e-5)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(20, 2000), k=st.integers(1, 20))
def test_int8_top_k_matches_float32_within_tolerance(seed: int, n: int, k: int) -> None:
    """The approximate k best are float32's k best, up to swaps between scores closer than the error bound."""
    rows = unit_rows(seed, n, 384)
    query = unit_rows(seed + 1, 1, 384)[0]
    ids = np.arange(n, dtype=np.int64)
    exact = rows @ query
    codes, scales = quantize(rows)
    approx = approximate_scores(codes, scales, query)
    bound = float(np.abs(query).sum() * scales.max() / 2)  # |error| <= sum |q_i| * step / 2
    assert np.all(np.abs(approx - exact) <= bound + 1e-6)
    picked, truth = top_k(ids, approx, k), top_k(ids, exact, k)
    np.testing.assert_allclose(exact[picked], exact[truth], atol=2 * bound)
    assert float(np.sqrt(np.mean((approx - exact) ** 2))) < 1e-3  # typical error: well under the worst case


def test_top_k_orders_by_score_then_id() -> None:
    ids = np.array([5, 3, 9, 1], dtype=np.int64)
    scores = np.array([0.5, 0.9, 0.5, 0.1], dtype=np.float32)
    assert top_k(ids, scores, 3).tolist() == [1, 0, 2]
    assert top_k(ids, scores, 10).tolist() == [1, 0, 2, 3]
    assert top_k(ids, scores, 0).tolist() == []


HISTORY = [
    make_session(f"s{i}", [f"Turn {i} about topic {i % 7}. Then another sentence {i}.", f"Reply {i * 3}"])
    for i in range(40)
]


@pytest.fixture
def filled(tmp_path: Path) -> Memory:
    memory = Memory(tmp_path / "m.db", embedder="fake", extractor="none")
    memory.ingest(HISTORY)
    return memory


@pytest.mark.parametrize("small_rows", [0, vectors_module.SMALL_TABLE_ROWS])
def test_search_equals_exact_float32_brute_force(
    filled: Memory, monkeypatch: pytest.MonkeyPatch, small_rows: int
) -> None:
    """Both paths: int8 codes then exact rescoring (large tables), and exact rows kept (small ones)."""
    monkeypatch.setattr(vectors_module, "FETCH_ROWS", 7)  # build across many chunks
    monkeypatch.setattr(vectors_module, "SMALL_TABLE_ROWS", small_rows)
    embedder = filled.embedder
    assert embedder is not None
    index = VectorIndex(filled.store, embedder.name, embedder.dim)
    for table in ("turns", "pieces"):
        ids, exact_vectors = index.matrix(filled.user, table)
        assert len(ids) > 50 and np.all(np.diff(ids) > 0)
        matrix = index.quantized(filled.user, table)
        assert matrix.ids.tolist() == ids.tolist() and matrix.codes.shape == exact_vectors.shape
        assert (matrix.exact is not None) == (small_rows > 0)
        some = [int(i) for i in ids[::7]]
        got_exact = index.exact_vectors(filled.user, table, some)
        assert sorted(got_exact) == sorted(some)
        np.testing.assert_array_equal(np.stack([got_exact[pk] for pk in some]), exact_vectors[::7])
        for text in ("user: Turn 3 about topic 3.", "Reply 12", "topic 5"):
            query = embedder.embed([text])[0]
            scores = exact_vectors @ query
            want = [(int(ids[i]), float(scores[i])) for i in top_k(ids, scores, 10)]
            got = index.search(filled.user, table, query, 10)
            assert [pk for pk, _ in got] == [pk for pk, _ in want]
            np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=1e-6)
    filled.close()


def test_exact_vectors_and_rebuild_after_writes(filled: Memory) -> None:
    embedder = filled.embedder
    assert embedder is not None
    index = VectorIndex(filled.store, embedder.name, embedder.dim)
    before = index.quantized(filled.user, "turns")
    assert index.quantized(filled.user, "turns") is before  # cached while nothing changed
    ids, vectors = index.matrix(filled.user, "turns")
    some = index.vectors_of(filled.user, "turns", [int(ids[0]), int(ids[5]), 10**9])
    assert sorted(some) == [int(ids[0]), int(ids[5])]
    np.testing.assert_array_equal(some[int(ids[5])], vectors[5])
    filled.ingest([make_session("late", ["A late turn about gardening."])])
    after = index.quantized(filled.user, "turns")
    assert len(after.ids) == len(before.ids) + 1
    assert index.search("nobody", "turns", vectors[0], 5) == []
    assert index.search(filled.user, "turns", vectors[0], 0) == []
    with pytest.raises(ValueError, match="no vectors"):
        index.search(filled.user, "sessions", vectors[0], 5)
    filled.close()


def _same(a: vectors_module.QuantizedMatrix, b: vectors_module.QuantizedMatrix) -> None:
    np.testing.assert_array_equal(a.ids, b.ids)
    np.testing.assert_array_equal(a.codes, b.codes)
    np.testing.assert_array_equal(a.scales, b.scales)
    assert (a.exact is None) == (b.exact is None)
    if a.exact is not None and b.exact is not None:
        np.testing.assert_array_equal(a.exact, b.exact)


def test_exact_rows_are_kept_for_small_tables_within_the_index_budget(
    filled: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert filled.embedder is not None
    index = VectorIndex(filled.store, filled.embedder.name, filled.embedder.dim)
    turns = index.quantized(filled.user, "turns")
    assert turns.exact is not None and turns.exact.shape == (len(turns.ids), filled.embedder.dim)
    # the budget is full after the turns: the pieces are kept as codes only, and still searched exactly
    monkeypatch.setattr(vectors_module, "EXACT_CACHE_ROWS", len(turns.ids))
    pieces = index.quantized(filled.user, "pieces")
    assert pieces.exact is None
    ids, vectors = index.matrix(filled.user, "pieces")
    query = vectors[3]
    assert index.search(filled.user, "pieces", query, 1)[0][0] == int(ids[3])
    # a table that grows past SMALL_TABLE_ROWS drops its exact rows when it is extended
    monkeypatch.setattr(vectors_module, "SMALL_TABLE_ROWS", len(turns.ids))
    filled.ingest([make_session("late", ["A late turn about gardening."])])
    grown = index.quantized(filled.user, "turns")
    assert len(grown.ids) == len(turns.ids) + 1 and grown.exact is None
    filled.close()


def _fresh(memory: Memory, table: str) -> vectors_module.QuantizedMatrix:
    assert memory.embedder is not None
    return VectorIndex(memory.store, memory.embedder.name, memory.embedder.dim).quantized(memory.user, table)


def count_builds(index: VectorIndex, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tables whose matrix ``index`` builds from scratch from now on (appends and prunes are not builds)."""
    builds: list[str] = []
    build = VectorIndex._build

    def counting_build(
        self: VectorIndex, user: str, table: str
    ) -> tuple[vectors_module.QuantizedMatrix, vectors_module.Pending]:
        if self is index:
            builds.append(table)
        return build(self, user, table)

    monkeypatch.setattr(VectorIndex, "_build", counting_build)
    return builds


def test_rows_only_added_are_appended_and_equal_a_rebuild(filled: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    assert filled.embedder is not None
    index = VectorIndex(filled.store, filled.embedder.name, filled.embedder.dim)
    before = {table: index.quantized(filled.user, table) for table in ("turns", "pieces")}
    builds = count_builds(index, monkeypatch)
    filled.ingest([make_session("late", ["A late turn about gardening. And compost.", "Nice!"])])
    for table in ("turns", "pieces"):
        after = index.quantized(filled.user, table)
        assert len(after.ids) > len(before[table].ids)
        _same(after, _fresh(filled, table))
    assert builds == []  # appended, not rebuilt
    filled.close()


def test_deleted_rows_or_newly_embedded_old_rows_force_a_rebuild(tmp_path: Path) -> None:
    memory = Memory(tmp_path / "m.db", embedder="fake", extractor="none")
    memory.ingest(HISTORY[:10])
    assert memory.embedder is not None
    index = VectorIndex(memory.store, memory.embedder.name, memory.embedder.dim)
    index.quantized(memory.user, "turns")
    deletions = memory.store.conn.execute("SELECT n FROM row_deletions WHERE tbl = 'turns'").fetchone()[0]
    # Replacing the last session deletes its turns (by cascade) and may reuse their ids for the new ones.
    memory.ingest([make_session("s9", ["Replaced text about sailing."])], replace=True)
    after = memory.store.conn.execute("SELECT n FROM row_deletions WHERE tbl = 'turns'").fetchone()[0]
    assert after == deletions + 2  # both turns of the old s9, deleted by the cascade from sessions
    _same(index.quantized(memory.user, "turns"), _fresh(memory, "turns"))
    memory.close()

    lexical = Memory(tmp_path / "late.db", embedder="none", extractor="none")  # rows written without vectors
    lexical.ingest(HISTORY[:5])
    lexical.close()
    embedded = Memory(tmp_path / "late.db", embedder="fake", extractor="none")
    assert embedded.embedder is not None
    late_index = VectorIndex(embedded.store, embedded.embedder.name, embedded.embedder.dim)
    assert len(late_index.quantized(embedded.user, "turns").ids) == 0
    embedded.embed_missing()
    _same(late_index.quantized(embedded.user, "turns"), _fresh(embedded, "turns"))
    assert len(late_index.quantized(embedded.user, "turns").ids) == 10
    embedded.close()


def test_a_forget_prunes_the_matrix_without_a_rebuild_and_a_reused_id_forces_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory = Memory(tmp_path / "m.db", embedder="fake", extractor="none")
    memory.ingest(HISTORY[:10])
    assert memory.embedder is not None
    index = VectorIndex(memory.store, memory.embedder.name, memory.embedder.dim)
    before = index.quantized(memory.user, "turns")
    builds = count_builds(index, monkeypatch)
    memory.forget(session_id="s3")
    memory.add("A new turn about kites.", session_id="live")
    after = index.quantized(memory.user, "turns")
    assert len(after.ids) == len(before.ids) - 2 + 1
    _same(after, _fresh(memory, "turns"))
    assert builds == []  # pruned and extended, not rebuilt
    # Forgetting the newest session frees the largest ids, which the next add takes again: the old vectors of
    # those ids must not survive under the new rows.
    memory.forget(session_id="live")
    memory.add("Something else entirely: sailing.", session_id="live2")
    _same(index.quantized(memory.user, "turns"), _fresh(memory, "turns"))
    assert builds == ["turns"]
    memory.close()


def test_rows_embedded_after_another_process_read_them_join_without_a_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An add commits its turns, then their vectors: a searcher in another process can read the rows in between.
    Those rows are tracked by id and join the matrix once embedded, in id order, with no rebuild."""
    memory = Memory(tmp_path / "m.db", embedder="fake", extractor="none")
    memory.ingest(HISTORY[:6])
    assert memory.embedder is not None
    index = VectorIndex(memory.store, memory.embedder.name, memory.embedder.dim)
    before = {table: index.quantized(memory.user, table) for table in ("turns", "pieces")}
    builds = count_builds(index, monkeypatch)
    writer = Memory(tmp_path / "m.db", embedder="none", extractor="none")  # rows naming texts, no vectors yet
    writer.add("A turn about kites and kite strings.", session_id="live")
    writer.close()
    memory.add("Then a turn about sailing boats.", session_id="live")  # embedded at once, after the pending one
    middle = index.quantized(memory.user, "turns")
    assert len(middle.ids) == len(before["turns"].ids) + 1  # the unembedded turn is not in the matrix
    memory.embed_missing()
    for table in ("turns", "pieces"):
        after = index.quantized(memory.user, table)
        _same(after, _fresh(memory, table))
        assert np.all(np.diff(after.ids) > 0)
    assert len(index.quantized(memory.user, "turns").ids) == len(before["turns"].ids) + 2
    assert builds == []
    memory.close()


def test_too_many_pending_rows_fall_back_to_a_rebuild(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vectors_module, "PENDING_ROWS", 1)
    memory = Memory(tmp_path / "m.db", embedder="fake", extractor="none")
    memory.ingest(HISTORY[:3])
    assert memory.embedder is not None
    index = VectorIndex(memory.store, memory.embedder.name, memory.embedder.dim)
    index.quantized(memory.user, "turns")
    writer = Memory(tmp_path / "m.db", embedder="none", extractor="none")
    writer.ingest(HISTORY[3:6])  # six turns without vectors: more than one pending
    writer.close()
    memory.add("An embedded turn after them.", session_id="live")
    index.quantized(memory.user, "turns")
    builds = count_builds(index, monkeypatch)
    memory.embed_missing()
    _same(index.quantized(memory.user, "turns"), _fresh(memory, "turns"))
    assert builds == ["turns"]
    memory.close()


@settings(max_examples=25, deadline=None)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from(["add", "embed_some", "forget", "look"]), st.integers(0, 10**6)), max_size=14
    )
)
def test_the_index_equals_a_fresh_build_after_any_interleaving(
    tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, int]]
) -> None:
    """Rows written without vectors (another process's add in flight), vectors landing for some of them in any
    order, forgets, and searches in between: the kept matrix is always what a fresh build reads."""
    import random

    path = tmp_path_factory.mktemp("interleave") / "m.db"
    reader = Memory(path, embedder="fake", extractor="none")
    reader.ingest(HISTORY[:3])
    writer = Memory(path, embedder="none", extractor="none")
    embedder = reader.embedder
    assert embedder is not None
    index = VectorIndex(reader.store, embedder.name, embedder.dim)
    added = 0
    for action, seed in steps:
        rng = random.Random(seed)
        if action == "add":
            added += 1
            writer.add(f"Note {added} about kites {seed}. And boats.", session_id=f"live{rng.randint(0, 2)}")
        elif action == "embed_some":
            missing = list(reader.store.missing_embeddings(embedder.name, reader.user).items())
            chosen = rng.sample(missing, rng.randint(0, len(missing))) if missing else []
            if chosen:
                vectors = embedder.embed([text for _, text in chosen])
                reader.store.put_embeddings(
                    embedder.name, [(d, v.tobytes()) for (d, _), v in zip(chosen, vectors, strict=True)], embedder.dim
                )
        elif action == "forget":
            live = [s.session_id for s in reader.sessions() if s.session_id.startswith("live")]
            if live:
                reader.forget(session_id=rng.choice(live))
        for table in ("turns", "pieces"):
            _same(index.quantized(reader.user, table), _fresh(reader, table))
    writer.close()
    reader.close()


def test_a_forget_that_lowers_the_last_id_keeps_pending_rows_once(tmp_path: Path) -> None:
    """A row waiting for its vector, then the newer rows after it forgotten: the matrix ends below the waiting row,
    which the next extension reads as a new row. It must not also come back as a pending one (twice in the
    matrix)."""
    path = tmp_path / "m.db"
    reader = Memory(path, embedder="fake", extractor="none")
    reader.ingest(HISTORY[:2])
    assert reader.embedder is not None
    embedder = reader.embedder
    index = VectorIndex(reader.store, embedder.name, embedder.dim)
    index.quantized(reader.user, "turns")
    writer = Memory(path, embedder="none", extractor="none")
    writer.add("A waiting turn about kites.", session_id="wait")
    writer.add("A newer turn about boats.", session_id="newer")
    writer.close()

    def embed(session_text: str) -> None:
        missing = reader.store.missing_embeddings(embedder.name, reader.user)
        chosen = [(d, t) for d, t in missing.items() if session_text in t]
        vectors = embedder.embed([t for _, t in chosen])
        items = [(d, v.tobytes()) for (d, _), v in zip(chosen, vectors, strict=True)]
        reader.store.put_embeddings(embedder.name, items, embedder.dim)

    embed("boats")  # the newer turn first: the waiting one is pending, below the matrix's last id
    _same(index.quantized(reader.user, "turns"), _fresh(reader, "turns"))
    reader.forget(session_id="newer")  # the last id falls below the pending row
    _same(index.quantized(reader.user, "turns"), _fresh(reader, "turns"))
    embed("kites")
    after = index.quantized(reader.user, "turns")
    _same(after, _fresh(reader, "turns"))
    assert len(np.unique(after.ids)) == len(after.ids)
    reader.close()
