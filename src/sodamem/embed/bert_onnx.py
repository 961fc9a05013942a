"""The BERT forward pass of :mod:`sodamem.embed.bert_numpy` as an fp32 ONNX graph, run by onnxruntime.

The same arithmetic in float32 (embeddings and LayerNorm; per layer, masked self-attention, a residual LayerNorm, an
exact-erf GELU feed-forward and another residual LayerNorm), built in memory (:mod:`~sodamem.embed.onnx_proto`, no
``onnx`` package) from the weights :class:`~sodamem.embed.bert_numpy.BertWeights` read from the model's
safetensors: no exported model file, nothing quantised, the vectors of the numpy encoder within float32 rounding
(tests). Why: onnxruntime's kernels do a query's products in less than half the CPU of numpy's OpenBLAS calls for a
few tokens, and a search's query embedding was the largest single cost of a served search.

Self-attention is onnxruntime's fused ``Attention`` kernel (``com.microsoft``, in every CPU build: 3% less CPU
than the same steps as standard operators). The graph takes the summed token embeddings ``(batch, tokens, hidden)``
(read in numpy from the memory-mapped weights) and the attention mask ``(batch, tokens, tokens)`` (1 where a token
may attend to another: a real token of the same text) and returns the last hidden state ``(batch, tokens,
hidden)``; pooling stays in numpy. A session runs on one thread, as the numpy encoder's BLAS does: on 2 shared cores
a one-text product split over both waits on the slower one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sodamem.embed import onnx_proto
from sodamem.embed.bert_numpy import (
    F32,
    I64,
    BertEncoder,
    BertWeights,
    LayerWeights,
    mean_pool_normalise,
    pad_batch,
    unit_rows,
)

I32 = np.ndarray[Any, np.dtype[np.int32]]

# A batch may carry this share of padding over its real tokens; past it, texts run apart. Measured on LoCoMo (CPU per
# text, one thread): a turn with its few shorter sentences cost 1.6x more padded than run one by one, while ingest's
# thousands of texts, sorted by length so that neighbours pad little, ran 1.45x faster in batches of 32.
MAX_PADDING = 0.25
# A call whose texts would run as two or more batches runs as one packed sequence instead when they hold at most
# this many tokens together (an add's turn, its sentences, facts and names: ~60): each text attends to itself only
# and its positions start at 0, so it gets its own vector within float32 rounding, without padding. A forward pass
# streams the 42 MB of weights whatever its length (~4.5 ms of a one-text query's ~8), so an add's texts in one pass
# instead of 2-3 cost 11% less CPU (80 LoCoMo adds, in-process).
PACK_TOKENS = 256

# onnxruntime 1.17 (the oldest the extras allow) runs opset 17, the first with LayerNormalization.
OPSET = 17
IR_VERSION = 8


# Initialisers of at least this many elements (the weight matrices and biases) are handed to onnxruntime as arrays,
# not serialised: see OnnxBertForward.
EXTERNAL_ELEMENTS = 1024


@dataclass(frozen=True, slots=True)
class BertGraph:
    """The serialised model, which names its large initialisers without holding them, and those initialisers."""

    model: bytes
    external: dict[str, np.ndarray[Any, Any]]


# Weights in [-63, 63]: onnxruntime multiplies uint8 activations by int8 weights, and its AVX2 kernel (no VNNI) adds
# two products in 16 bits before widening: 255 * 127 * 2 saturates, 255 * 63 * 2 does not. So every x86 kernel sums
# exactly, and a text gets the same vector on every machine. Cosine to the fp32 vectors over 400 LoCoMo texts: 0.9937
# on average with 63 levels, 0.9947 with 127.
WEIGHT_LEVELS = 63


def quantize_columns(matrix: F32, levels: int = WEIGHT_LEVELS) -> tuple[np.ndarray[Any, np.dtype[np.int8]], F32]:
    """``matrix`` ``(in, out)`` as int8 in ``[-levels, levels]`` with one scale per column (symmetric, zero point
    0): ``q * scale`` is within ``scale / 2`` of each value. A column of zeros (or of values too small for a float32
    scale) gets scale 1."""
    scale = (np.abs(matrix).max(axis=0) / np.float32(levels)).astype(np.float32)
    scale = np.where(scale > 0, scale, np.float32(1.0))
    quantized = np.clip(np.rint(matrix / scale), -levels, levels).astype(np.int8)
    return quantized, scale


class _GraphBuilder:
    """Nodes and initializers of one graph, with generated value names. ``quantized``: the dense products (attention
    output, feed-forward up and down) in int8 (see :func:`build_graph`)."""

    def __init__(self, external_elements: int, quantized: bool = False) -> None:
        self.nodes: list[bytes] = []
        self.initializers: list[bytes] = []
        self.external: dict[str, np.ndarray[Any, Any]] = {}
        self._external_elements = external_elements
        self._quantized = quantized
        self._count = 0

    def constant(self, name: str, array: np.ndarray[Any, Any]) -> str:
        if array.size >= self._external_elements:
            self.external[name] = np.ascontiguousarray(array)
            self.initializers.append(onnx_proto.external_tensor(name, array))
        else:
            self.initializers.append(onnx_proto.tensor(name, array))
        return name

    def op(self, op_type: str, *inputs: str, output: str | None = None, domain: str = "", **attributes: Any) -> str:
        self._count += 1
        output = output or f"{op_type.lower()}_{self._count}"
        self.nodes.append(onnx_proto.node(op_type, inputs, [output], domain, **attributes))
        return output

    def linear(self, x: str, weight: F32, bias: F32, name: str) -> str:
        """``x @ weight.T + bias`` with PyTorch's ``(out, in)`` weight as it is (onnxruntime's ``FusedMatMul`` with
        ``transB``): no transposed copy of the weights to hand over (peak memory 261 -> 229 MB), same speed.
        Quantized: onnxruntime's ``DynamicQuantizeMatMul``, int8 weights per output column, the activations
        quantized per call, the bias added in the same kernel."""
        if self._quantized:
            weights, scale = quantize_columns(np.ascontiguousarray(weight.T))
            return self.op(
                "DynamicQuantizeMatMul",
                x,
                self.constant(f"{name}.q", weights),
                self.constant(f"{name}.s", scale),
                self.constant(f"{name}.z", np.zeros(scale.shape, np.int8)),
                self.constant(f"{name}.b", bias.reshape(-1)),
                domain="com.microsoft",
            )
        product = self.op("FusedMatMul", x, self.constant(f"{name}.w", weight), domain="com.microsoft", transB=1)
        return self.op("Add", product, self.constant(f"{name}.b", bias.reshape(-1)))

    def layer_norm(self, x: str, gain: F32, bias: F32, eps: float, name: str, output: str | None = None) -> str:
        gain_name = self.constant(f"{name}.g", gain.reshape(-1))
        bias_name = self.constant(f"{name}.b", bias.reshape(-1))
        return self.op("LayerNormalization", x, gain_name, bias_name, output=output, axis=-1, epsilon=eps)


def _layer(g: _GraphBuilder, x: str, w: LayerWeights, heads: int, eps: float, i: int, output: str | None = None) -> str:
    # onnxruntime's fused self-attention: the q/k/v projection, scaled scores, masked softmax and the mix of values
    merged = g.op(
        "Attention",
        x,
        g.constant(f"l{i}.qkv.w", w.qkv_w.T),
        g.constant(f"l{i}.qkv.b", w.qkv_b.reshape(-1)),
        "attention_mask",
        domain="com.microsoft",
        num_heads=heads,
    )
    attended = g.op("Add", g.linear(merged, w.out_w, w.out_b, f"l{i}.out"), x)
    h = g.layer_norm(attended, w.ln1_g, w.ln1_b, eps, f"l{i}.ln1")
    up = g.linear(h, w.up_w, w.up_b, f"l{i}.up")
    # exact GELU, x * (1 + erf(x / sqrt 2)) / 2: onnxruntime fuses this pattern into one kernel
    erf = g.op("Erf", g.op("Div", up, g.constant(f"l{i}.sqrt2", np.array(math.sqrt(2), np.float32))))
    one_plus = g.op("Add", erf, g.constant(f"l{i}.one", np.array(1.0, np.float32)))
    gelu = g.op("Mul", g.op("Mul", up, one_plus), g.constant(f"l{i}.half", np.array(0.5, np.float32)))
    down = g.op("Add", g.linear(gelu, w.down_w, w.down_b, f"l{i}.down"), h)
    return g.layer_norm(down, w.ln2_g, w.ln2_b, eps, f"l{i}.ln2", output=output)


def build_graph(
    weights: BertWeights, external_elements: int = EXTERNAL_ELEMENTS, *, quantized: bool = False
) -> BertGraph:
    """The encoder's layers as an ONNX model, from the embeddings' LayerNorm to the last hidden state (see the
    module's docstring); the embeddings themselves are summed in numpy (:func:`embed_tokens`). Initialisers of at
    least ``external_elements`` elements are left out of the bytes, in ``BertGraph.external``.

    ``quantized``: the attention output and feed-forward products (three quarters of a layer's multiply-adds) in
    int8 (:meth:`_GraphBuilder.linear`); the fused attention's q/k/v product stays fp32. About half the CPU of a
    query and 0.6x of an add's batch on AVX-512 VNNI / AMX cores, with vectors at cosine ~0.99 to the fp32 ones:
    another model as far as stored vectors go (``minilm-q8``)."""
    config = weights.config
    g = _GraphBuilder(external_elements, quantized)
    x = g.layer_norm("embedded", weights.ln_g, weights.ln_b, config.eps, "embeddings.ln")
    last = len(weights.layers) - 1
    for i, layer in enumerate(weights.layers):
        x = _layer(g, x, layer, config.heads, config.eps, i, output="last_hidden_state" if i == last else None)
    inputs = [
        onnx_proto.value_info("embedded", onnx_proto.FLOAT, ["batch", "tokens", config.hidden]),
        onnx_proto.value_info("attention_mask", onnx_proto.INT32, ["batch", "tokens", "tokens"]),
    ]
    output = onnx_proto.value_info("last_hidden_state", onnx_proto.FLOAT, ["batch", "tokens", config.hidden])
    graph = onnx_proto.graph("bert_encoder", g.nodes, g.initializers, inputs, [output])
    return BertGraph(onnx_proto.model(graph, {"": OPSET, "com.microsoft": 1}, IR_VERSION), g.external)


def embed_tokens(weights: BertWeights, ids: I64, type_ids: I64) -> F32:
    """Word + position + token-type embeddings ``(batch, tokens, hidden)`` of token ids padded on the right, read
    from the memory-mapped weights: the 47 MB word table stays in the file's shared pages, not in each process's
    own memory as an initialiser of the graph would."""
    tokens = ids.shape[1]
    embedded: F32 = weights.word[ids] + weights.position[:tokens] + weights.token_type[type_ids]
    return embedded


def packed_inputs(
    weights: BertWeights, ids: Sequence[Sequence[int]], types: Sequence[Sequence[int]]
) -> tuple[F32, I32]:
    """The embeddings ``(1, tokens, hidden)`` of texts laid end to end, each text's positions from 0, and the
    block-diagonal attention mask ``(1, tokens, tokens)`` that keeps each text to its own tokens."""
    lengths = [len(r) for r in ids]
    flat_ids = np.fromiter((t for r in ids for t in r), dtype=np.int64, count=sum(lengths))
    flat_types = np.fromiter((t for r in types for t in r), dtype=np.int64, count=sum(lengths))
    positions = np.concatenate([np.arange(n) for n in lengths])
    embedded: F32 = (weights.word[flat_ids] + weights.position[positions] + weights.token_type[flat_types])[None]
    mask = np.zeros((1, len(flat_ids), len(flat_ids)), dtype=np.int32)
    start = 0
    for n in lengths:
        mask[0, start : start + n, start : start + n] = 1
        start += n
    return embedded, mask


class OnnxBertForward:
    """An onnxruntime session of :func:`build_graph`: ``forward`` is :func:`~sodamem.embed.bert_numpy.encoder_forward`
    on onnxruntime. Sessions may be run from several threads at once."""

    def __init__(
        self,
        weights: BertWeights,
        threads: int = 1,
        external_elements: int = EXTERNAL_ELEMENTS,
        *,
        quantized: bool = False,
    ) -> None:
        import onnxruntime as ort  # type: ignore[import-untyped]  # ships no type hints

        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Idle pool threads would spin against whatever else runs on the 2 cores (as OpenBLAS's do).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3  # warnings about unused initialisers are not the caller's business
        graph = build_graph(weights, external_elements, quantized=quantized)
        # The weights go in as arrays, copied once into the session: serialised into the model they were held
        # twice, as onnxruntime's Python wrapper keeps the model's bytes for the session's life (255 against 166 MB
        # of private memory with the word table inside).
        names = list(graph.external)
        options.add_external_initializers(names, [ort.OrtValue.ortvalue_from_numpy(graph.external[n]) for n in names])
        self._session = ort.InferenceSession(graph.model, sess_options=options, providers=["CPUExecutionProvider"])
        self._weights = weights
        self.max_positions = weights.config.max_positions

    def forward(self, ids: I64, type_ids: I64, mask: I64) -> F32:
        """The last hidden state ``(batch, tokens, hidden)`` for token ids padded on the right (``mask`` 1 on real
        tokens)."""
        tokens = ids.shape[1]
        if tokens > self.max_positions:
            raise ValueError(f"{tokens} tokens is more than the model's {self.max_positions} positions")
        embedded = embed_tokens(self._weights, ids, type_ids)
        # each token attends to the real tokens of its row: the same kernel arithmetic as a (batch, tokens) mask
        keys = np.ascontiguousarray(np.broadcast_to(mask.astype(np.int32)[:, None, :], (*ids.shape, tokens)))
        return self._run(embedded, keys)

    def forward_packed(self, ids: Sequence[Sequence[int]], type_ids: Sequence[Sequence[int]]) -> list[F32]:
        """The last hidden states ``(tokens, hidden)`` of each text, run as one sequence (:func:`packed_inputs`)."""
        if max(len(r) for r in ids) > self.max_positions:
            raise ValueError(f"a text of more than the model's {self.max_positions} positions")
        hidden = self._run(*packed_inputs(self._weights, ids, type_ids))[0]
        ends = np.cumsum([len(r) for r in ids])
        return [hidden[end - len(r) : end] for r, end in zip(ids, ends.tolist(), strict=True)]

    def _run(self, embedded: F32, keys: I32) -> F32:
        (hidden,) = self._session.run(["last_hidden_state"], {"embedded": embedded, "attention_mask": keys})
        result: F32 = np.asarray(hidden, dtype=np.float32)
        return result


def similar_length_batches(
    lengths: Sequence[int], batch_size: int, max_padding: float = MAX_PADDING
) -> list[list[int]]:
    """Indices grouped shortest first into batches of at most ``batch_size`` whose padding to their longest stays
    within ``max_padding`` of their real tokens; a text that fits no neighbour's batch runs alone. Every index
    appears once."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    batches: list[list[int]] = []
    real = 0
    for i in order:
        current = batches[-1] if batches else None
        # sorted ascending, so the newcomer is the batch's longest
        if (
            current
            and len(current) < batch_size
            and lengths[i] * (len(current) + 1) <= (1 + max_padding) * (real + lengths[i])
        ):
            current.append(i)
            real += lengths[i]
        else:
            batches.append([i])
            real = lengths[i]
    return batches


class OnnxBertEncoder:
    """:class:`~sodamem.embed.bert_numpy.BertEncoder`'s tokenizer and weights, encoded by :class:`OnnxBertForward`:
    the same vectors within float32 rounding. Texts of similar lengths run as one padded batch, others one by one
    (:func:`similar_length_batches`). ``quantized``: the int8 graph (:func:`build_graph`), other vectors, each text
    run alone: its activations are quantized with one scale per call, so in a batch a text's vector would depend on
    the texts beside it (by ~1e-2), and a turn stored at ingest would not get the vector it gets when added alone."""

    def __init__(self, encoder: BertEncoder, threads: int = 1, *, quantized: bool = False) -> None:
        self._encoder = encoder
        self._forward = OnnxBertForward(encoder.weights, threads, quantized=quantized)
        self._one_per_call = quantized

    @property
    def dim(self) -> int:
        return self._encoder.dim

    def encode(self, texts: Sequence[str], batch_size: int = 32) -> F32:
        """Unit vectors ``(len(texts), dim)`` in the order given."""
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        ids, types = self._encoder.tokenize(texts)
        batches = similar_length_batches([len(r) for r in ids], 1 if self._one_per_call else batch_size)
        if len(batches) > 1 and not self._one_per_call and sum(len(r) for r in ids) <= PACK_TOKENS:
            for i, hidden in enumerate(self._forward.forward_packed(ids, types)):
                out[i] = unit_rows(hidden.sum(axis=0, keepdims=True) / np.float32(len(hidden)))[0]
            return out
        for rows in batches:
            batch_ids, batch_types, mask = pad_batch(
                [ids[i] for i in rows], [types[i] for i in rows], self._encoder.pad_id
            )
            out[rows] = mean_pool_normalise(self._forward.forward(batch_ids, batch_types, mask), mask)
        return out
