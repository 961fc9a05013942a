"""A BERT sentence encoder in numpy: the forward pass of a sentence-transformers BERT model (all-MiniLM-L6-v2), mean
pooled and L2-normalised, with no torch, transformers or sentence-transformers.

The pieces are plain functions over float32 arrays (:func:`erf`, :func:`gelu`, :func:`layer_norm`,
:func:`encoder_forward`, :func:`mean_pool_normalise`), so each can be checked on its own; :class:`BertEncoder` puts
them together with the model's ``tokenizer.json`` (the Rust ``tokenizers`` library) and its ``model.safetensors``
(read here: an 8-byte header length, a JSON header, then raw little-endian buffers). Nothing is mutable after
loading, so one encoder serves any number of threads at once.

It computes what ``transformers``' ``BertModel`` does in float32 (word + position + token-type embeddings and a
LayerNorm; per layer, self-attention with an additive mask on padded keys, a residual LayerNorm, an exact-erf GELU
feed-forward and another residual LayerNorm), then the sentence-transformers modules the model directory lists:
``Pooling`` (mean over the attention mask) and ``Normalize``. Same vectors within float32 rounding (tests).
"""

from __future__ import annotations

import json
import math
import mmap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from tokenizers import Tokenizer

F32 = NDArray[np.float32]
I64 = NDArray[np.int64]

_DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64, "I32": np.int32}
# What a masked key gets added to its attention score: transformers' value (the float32 minimum), so that exp()
# underflows to exactly 0 and a padded row's real tokens see exactly what they would see unpadded.
_MASKED = np.float32(np.finfo(np.float32).min)


# -- weights --------------------------------------------------------------------------------------------------------


def read_safetensors(path: Path) -> dict[str, NDArray[Any]]:
    """The tensors of a ``.safetensors`` file as read-only numpy arrays over a memory map of the file (the pages are
    shared by every process that maps it). Little-endian dtypes only, as the format stores them."""
    with path.open("rb") as handle:
        buffer = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    header_len = int.from_bytes(buffer[:8], "little")
    header = json.loads(buffer[8 : 8 + header_len])
    start = 8 + header_len
    tensors: dict[str, NDArray[Any]] = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(entry["dtype"])
        if dtype is None:
            raise ValueError(f"{path}: tensor {name} has dtype {entry['dtype']}, which this reader does not take")
        begin, end = entry["data_offsets"]
        shape = tuple(entry["shape"])
        count = math.prod(shape)
        if end - begin != count * np.dtype(dtype).itemsize:
            raise ValueError(f"{path}: tensor {name} has {end - begin} bytes for shape {shape} and dtype {dtype}")
        array = np.frombuffer(buffer, dtype=np.dtype(dtype).newbyteorder("<"), count=count, offset=start + begin)
        tensors[name] = array.reshape(shape)
    return tensors


@dataclass(frozen=True, slots=True)
class BertConfig:
    hidden: int
    heads: int
    layers: int
    eps: float
    max_positions: int

    @classmethod
    def from_file(cls, path: Path) -> BertConfig:
        config = json.loads(path.read_text(encoding="utf-8"))
        if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
            raise ValueError(f"{path}: not a BERT model with exact GELU ({config.get('model_type')!r})")
        if config.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"{path}: position embeddings {config['position_embedding_type']!r} are not absolute")
        if config["hidden_size"] % config["num_attention_heads"]:
            raise ValueError(f"{path}: hidden size is not a multiple of the number of heads")
        return cls(
            hidden=int(config["hidden_size"]),
            heads=int(config["num_attention_heads"]),
            layers=int(config["num_hidden_layers"]),
            eps=float(config["layer_norm_eps"]),
            max_positions=int(config["max_position_embeddings"]),
        )


@dataclass(frozen=True, slots=True)
class LayerWeights:
    """One encoder layer, weights as PyTorch stores them: a linear map's ``(out, in)`` multiplies the hidden
    states held feature-major, ``(hidden, tokens)`` (see :func:`encoder_layer`). ``qkv`` is query, key and value
    stacked, one product."""

    qkv_w: F32
    qkv_b: F32
    out_w: F32
    out_b: F32
    ln1_g: F32
    ln1_b: F32
    up_w: F32
    up_b: F32
    down_w: F32
    down_b: F32
    ln2_g: F32
    ln2_b: F32


@dataclass(frozen=True, slots=True)
class BertWeights:
    config: BertConfig
    word: F32
    position: F32
    token_type: F32
    ln_g: F32
    ln_b: F32
    layers: tuple[LayerWeights, ...]

    @classmethod
    def from_tensors(cls, config: BertConfig, tensors: dict[str, NDArray[Any]]) -> BertWeights:
        """From a ``BertModel`` state dict (keys with or without a ``bert.`` prefix); the pooler is not used."""

        def get(name: str) -> F32:
            array = tensors.get(name, tensors.get(f"bert.{name}"))
            if array is None:
                raise KeyError(f"the model has no tensor {name}")
            result: F32 = np.asarray(array, dtype=np.float32)
            return result

        layers = []
        for i in range(config.layers):
            p = f"encoder.layer.{i}."
            qkv = ("query", "key", "value")
            layers.append(
                LayerWeights(
                    qkv_w=np.concatenate([get(f"{p}attention.self.{part}.weight") for part in qkv]),
                    qkv_b=np.concatenate([get(f"{p}attention.self.{part}.bias") for part in qkv])[:, None],
                    out_w=get(f"{p}attention.output.dense.weight"),
                    out_b=get(f"{p}attention.output.dense.bias")[:, None],
                    ln1_g=get(f"{p}attention.output.LayerNorm.weight")[:, None],
                    ln1_b=get(f"{p}attention.output.LayerNorm.bias")[:, None],
                    up_w=get(f"{p}intermediate.dense.weight"),
                    up_b=get(f"{p}intermediate.dense.bias")[:, None],
                    down_w=get(f"{p}output.dense.weight"),
                    down_b=get(f"{p}output.dense.bias")[:, None],
                    ln2_g=get(f"{p}output.LayerNorm.weight")[:, None],
                    ln2_b=get(f"{p}output.LayerNorm.bias")[:, None],
                )
            )
        word = get("embeddings.word_embeddings.weight")
        if word.shape[1] != config.hidden:
            raise ValueError(f"word embeddings are {word.shape[1]}-dimensional, the config says {config.hidden}")
        return cls(
            config=config,
            word=word,
            position=get("embeddings.position_embeddings.weight"),
            token_type=get("embeddings.token_type_embeddings.weight"),
            ln_g=get("embeddings.LayerNorm.weight")[:, None],
            ln_b=get("embeddings.LayerNorm.bias")[:, None],
            layers=tuple(layers),
        )


# -- the forward pass -----------------------------------------------------------------------------------------------

# Abramowitz & Stegun 7.1.26: |error| <= 1.5e-7 for every x, below float32's resolution of GELU's outputs.
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf(x: F32) -> F32:
    """The error function, elementwise, to 1.5e-7 (Abramowitz & Stegun 7.1.26); numpy has none."""
    a = np.abs(x)
    t = np.multiply(a, np.float32(_ERF_P))
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = np.multiply(t, np.float32(_ERF_A[4]))
    for c in _ERF_A[3::-1]:
        poly += np.float32(c)
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a  # 1 - erf(|x|)
    np.subtract(np.float32(1.0), poly, out=poly)
    result: F32 = np.copysign(poly, x, out=poly)
    return result


def gelu(x: F32) -> F32:
    """Exact (erf) GELU, as transformers' ``gelu``: ``x * (1 + erf(x / sqrt 2)) / 2``."""
    y = erf(x * np.float32(1 / math.sqrt(2)))
    y += np.float32(1.0)
    y *= x
    y *= np.float32(0.5)
    return y


def layer_norm(x: F32, gain: F32, bias: F32, eps: float) -> F32:
    """LayerNorm over the first axis, the features of feature-major ``(hidden, tokens)`` states (biased variance,
    as torch); ``gain`` and ``bias`` are columns ``(hidden, 1)``."""
    centred: F32 = x - x.mean(axis=0, keepdims=True)
    var = np.square(centred).mean(axis=0, keepdims=True)
    var += np.float32(eps)
    np.sqrt(var, out=var)
    centred /= var
    centred *= gain
    centred += bias
    return centred


def _softmax_inplace(scores: F32) -> F32:
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=-1, keepdims=True)
    return scores


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each text's tokens sit among the columns of the hidden states, for attention.

    Padded (``spread`` None): the columns are ``batch * tokens``, each text padded on the right to ``tokens``.
    Packed: the columns are the real tokens only, text after text; ``spread`` (``batch * tokens``) is the column
    each padded position reads (a pad reads any column: its key is masked and its output dropped) and ``real`` the
    padded position of each column. Every per-token step (the projections, GELU, LayerNorm: most of the work) then
    runs on real tokens only; attention alone sees the texts padded. An add embeds a turn with its few shorter
    sentences, which padding made ~1.8x the work."""

    batch: int
    tokens: int
    key_bias: F32 | None  # (batch, tokens): 0 on a real token, _MASKED on padding; None: no padding
    spread: I64 | None = None
    real: I64 | None = None

    @classmethod
    def packed(cls, lengths: Sequence[int]) -> Layout:
        tokens = max(lengths)
        starts = np.cumsum([0, *lengths[:-1]])
        offset = np.arange(tokens)
        inside = offset[None, :] < np.asarray(lengths)[:, None]  # (batch, tokens)
        spread = np.where(inside, starts[:, None] + offset[None, :], 0).reshape(-1)
        real = np.flatnonzero(inside.reshape(-1))
        key_bias = np.where(inside, np.float32(0.0), _MASKED).astype(np.float32)
        return cls(len(lengths), tokens, key_bias, spread.astype(np.int64), real.astype(np.int64))


def encoder_layer(h: F32, layout: Layout, w: LayerWeights, heads: int, eps: float) -> F32:
    """One BERT layer on feature-major hidden states ``h`` ``(hidden, columns)``, the tokens of each text side by
    side as ``layout`` says. Feature-major because OpenBLAS multiplies ``W (out, in) @ h`` for a few tokens about
    twice as fast as ``x (tokens, in) @ W.T``; it is the same arithmetic."""
    hidden = h.shape[0]
    batch, tokens, key_bias = layout.batch, layout.tokens, layout.key_bias
    size = hidden // heads
    qkv = w.qkv_w @ h
    qkv += w.qkv_b
    if layout.spread is not None:
        qkv = qkv[:, layout.spread]  # (3 * hidden, batch * tokens), padded for attention
    # (3, heads, size, batch, tokens) -> per (batch, head): q, v as (tokens, size), k as (size, tokens): strided
    # views, which matmul hands to BLAS as they are
    parts = qkv.reshape(3, heads, size, batch, tokens)
    q = parts[0].transpose(2, 0, 3, 1)
    k = parts[1].transpose(2, 0, 1, 3)
    v = parts[2].transpose(2, 0, 1, 3)  # (batch, heads, size, tokens)
    scores = q @ k  # (batch, heads, tokens, tokens)
    scores *= np.float32(1 / math.sqrt(size))
    if key_bias is not None:
        scores += key_bias[:, None, None, :]
    probs = _softmax_inplace(scores)
    context = v @ probs.transpose(0, 1, 3, 2)  # (batch, heads, size, tokens): each query's mix of values
    merged = context.transpose(1, 2, 0, 3).reshape(hidden, batch * tokens)
    if layout.real is not None:
        merged = merged[:, layout.real]  # back to the real tokens' columns
    attended = w.out_w @ merged
    attended += w.out_b
    attended += h
    h = layer_norm(attended, w.ln1_g, w.ln1_b, eps)
    up = w.up_w @ h
    up += w.up_b
    down = w.down_w @ gelu(up)
    down += w.down_b
    down += h
    return layer_norm(down, w.ln2_g, w.ln2_b, eps)


def encoder_forward(weights: BertWeights, ids: I64, type_ids: I64, mask: I64) -> F32:
    """The last hidden state ``(batch, tokens, hidden)`` for token ids padded to one width (``mask`` 1 on real
    tokens, 0 on padding, which sits at the end of each row)."""
    config = weights.config
    batch, tokens = ids.shape
    _check_positions(tokens, config)
    x = weights.word[ids] + weights.position[:tokens] + weights.token_type[type_ids]  # (batch, tokens, hidden)
    h = layer_norm(np.ascontiguousarray(x.reshape(batch * tokens, -1).T), weights.ln_g, weights.ln_b, config.eps)
    key_bias: F32 | None = None
    if not mask.all():
        key_bias = np.where(mask > 0, np.float32(0.0), _MASKED).astype(np.float32)
    layout = Layout(batch, tokens, key_bias)
    for layer in weights.layers:
        h = encoder_layer(h, layout, layer, config.heads, config.eps)
    result: F32 = h.T.reshape(batch, tokens, config.hidden)
    return result


def encode_packed(weights: BertWeights, rows: Sequence[Sequence[int]], types: Sequence[Sequence[int]]) -> F32:
    """Mean-pooled, normalised vectors ``(len(rows), hidden)`` of texts of any lengths, their tokens packed
    without padding (:class:`Layout`): what ``mean_pool_normalise(encoder_forward(...))`` gives for them padded."""
    config = weights.config
    lengths = [len(r) for r in rows]
    _check_positions(max(lengths), config)
    layout = Layout.packed(lengths)
    ids = np.fromiter((t for r in rows for t in r), dtype=np.int64, count=sum(lengths))
    type_ids = np.fromiter((t for r in types for t in r), dtype=np.int64, count=sum(lengths))
    positions = np.concatenate([np.arange(n) for n in lengths])
    x = weights.word[ids] + weights.position[positions] + weights.token_type[type_ids]  # (real tokens, hidden)
    h = layer_norm(np.ascontiguousarray(x.T), weights.ln_g, weights.ln_b, config.eps)
    for layer in weights.layers:
        h = encoder_layer(h, layout, layer, config.heads, config.eps)
    starts = np.cumsum([0, *lengths[:-1]])
    return unit_rows(np.add.reduceat(h, starts, axis=1).T / np.asarray(lengths, dtype=np.float32)[:, None])


def mean_pool_normalise(hidden: F32, mask: I64) -> F32:
    """sentence-transformers' ``Pooling`` (mean over the real tokens) then ``Normalize`` (unit L2 norm)."""
    weights = mask[:, :, None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    return unit_rows(summed / np.maximum(weights.sum(axis=1), np.float32(1e-9)))


def unit_rows(pooled: NDArray[np.floating[Any]]) -> F32:
    """``Normalize``: each row scaled to unit L2 norm (a zero row stays zero)."""
    norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
    result: F32 = (pooled / norms).astype(np.float32, copy=False)
    return result


def _check_positions(tokens: int, config: BertConfig) -> None:
    if tokens > config.max_positions:
        raise ValueError(f"{tokens} tokens is more than the model's {config.max_positions} positions")


def pad_batch(rows: Sequence[Sequence[int]], types: Sequence[Sequence[int]], pad_id: int) -> tuple[I64, I64, I64]:
    """Token ids, type ids and attention mask of ``rows`` padded on the right to the longest."""
    width = max(len(r) for r in rows)
    ids = np.full((len(rows), width), pad_id, dtype=np.int64)
    type_ids = np.zeros((len(rows), width), dtype=np.int64)
    mask = np.zeros((len(rows), width), dtype=np.int64)
    for i, (row, type_row) in enumerate(zip(rows, types, strict=True)):
        ids[i, : len(row)] = row
        type_ids[i, : len(type_row)] = type_row
        mask[i, : len(row)] = 1
    return ids, type_ids, mask


def length_batches(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices grouped into batches of at most ``batch_size``, shortest first, so each batch pads to similar
    lengths (a stable sort: equal lengths keep their order)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    return [order[start : start + batch_size] for start in range(0, len(order), batch_size)]


# -- the encoder ----------------------------------------------------------------------------------------------------


class BertEncoder:
    """A sentence-transformers BERT model directory (``config.json``, ``model.safetensors``, ``tokenizer.json``,
    ``sentence_bert_config.json``, mean pooling and normalisation) encoded in numpy."""

    def __init__(self, model_dir: Path) -> None:
        from tokenizers import Tokenizer

        self.model_dir = model_dir
        self.weights = BertWeights.from_tensors(
            BertConfig.from_file(model_dir / "config.json"), read_safetensors(model_dir / "model.safetensors")
        )
        _check_pipeline(model_dir)
        st_config = json.loads((model_dir / "sentence_bert_config.json").read_text(encoding="utf-8"))
        if st_config.get("do_lower_case"):
            raise ValueError(f"{model_dir}: do_lower_case is set, which this encoder does not do")
        self.max_tokens = min(int(st_config["max_seq_length"]), self.weights.config.max_positions)
        tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        # Set once, here: these setters mutate the tokenizer, which every thread then only reads. tokenizer.json
        # ships truncation at 128 and fixed padding to 128; sentence-transformers truncates at max_seq_length and
        # pads each batch to its longest, which pad_batch does.
        tokenizer.enable_truncation(max_length=self.max_tokens)
        tokenizer.no_padding()
        self.tokenizer: Tokenizer = tokenizer
        pad_id = tokenizer.token_to_id("[PAD]")
        self.pad_id = 0 if pad_id is None else pad_id

    @property
    def dim(self) -> int:
        return self.weights.config.hidden

    def tokenize(self, texts: Sequence[str]) -> tuple[list[list[int]], list[list[int]]]:
        """Token ids and type ids of each text, ``[CLS] ... [SEP]``, truncated to ``max_tokens``."""
        one = len(texts) == 1  # encode_batch hands one text to a thread pool for nothing
        encodings = [self.tokenizer.encode(texts[0])] if one else self.tokenizer.encode_batch(list(texts))
        return [e.ids for e in encodings], [e.type_ids for e in encodings]

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> F32:
        """Unit vectors ``(len(texts), dim)`` in the order given; batches of similar lengths, packed."""
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        ids, types = self.tokenize(texts)
        for rows in length_batches([len(r) for r in ids], batch_size):
            if len({len(ids[i]) for i in rows}) > 1:  # lengths differ: packed, no work on padding
                out[rows] = encode_packed(self.weights, [ids[i] for i in rows], [types[i] for i in rows])
                continue
            batch_ids, batch_types, mask = pad_batch([ids[i] for i in rows], [types[i] for i in rows], self.pad_id)
            hidden = encoder_forward(self.weights, batch_ids, batch_types, mask)
            out[rows] = mean_pool_normalise(hidden, mask)
        return out


def _check_pipeline(model_dir: Path) -> None:
    """The directory's sentence-transformers modules must be what :meth:`BertEncoder.encode` computes."""
    modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
    kinds = [m["type"].rsplit(".", 1)[-1] for m in modules]
    if kinds != ["Transformer", "Pooling", "Normalize"]:
        raise ValueError(f"{model_dir}: modules {kinds}, expected Transformer, Pooling, Normalize")
    pooling = json.loads((model_dir / modules[1]["path"] / "config.json").read_text(encoding="utf-8"))
    modes = sorted(key for key, value in pooling.items() if key.startswith("pooling_mode") and value is True)
    if modes != ["pooling_mode_mean_tokens"]:
        raise ValueError(f"{model_dir}: pooling {modes}, expected mean pooling only")
