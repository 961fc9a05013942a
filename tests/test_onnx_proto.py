"""The hand-written ONNX protobuf messages (embed/onnx_proto.py) read back by the official ``onnx`` package."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from sodamem.embed import onnx_proto

needs_onnx = pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason="onnx is not installed")


def test_varints_match_protobufs_encoding() -> None:
    assert onnx_proto._varint(0) == b"\x00"
    assert onnx_proto._varint(1) == b"\x01"
    assert onnx_proto._varint(300) == b"\xac\x02"
    assert onnx_proto._varint(-1) == b"\xff" * 9 + b"\x01"  # int64 -1: ten bytes


def test_unsupported_values_are_refused() -> None:
    with pytest.raises(ValueError, match="float16"):
        onnx_proto.tensor("x", np.zeros(2, np.float16))
    with pytest.raises(TypeError, match="flag"):
        onnx_proto.attribute("flag", True)


@needs_onnx
def test_tensors_read_back_with_their_names_shapes_and_values() -> None:
    import onnx
    from onnx import numpy_helper

    for array in (
        np.arange(12, dtype=np.float32).reshape(3, 4) / 7,
        np.array([-5, 0, 2**40], dtype=np.int64),
        np.array(2, dtype=np.int64),  # 0-d: a Gather's scalar index
        np.arange(6, dtype=np.int32).reshape(2, 3).T,  # not contiguous
        np.zeros((0, 3), dtype=np.float32),
    ):
        parsed = onnx.TensorProto.FromString(onnx_proto.tensor("t", array))
        assert parsed.name == "t"
        back = numpy_helper.to_array(parsed)
        assert back.dtype == array.dtype and back.shape == array.shape
        np.testing.assert_array_equal(back, array)


@needs_onnx
def test_a_model_reads_back_whole_and_passes_the_checker() -> None:
    import onnx

    nodes = [
        onnx_proto.node("MatMul", ["x", "w"], ["y"]),
        onnx_proto.node("Softmax", ["y"], ["p"], axis=-1),
        onnx_proto.node("LayerNormalization", ["p", "g", "b"], ["z"], axis=-1, epsilon=1e-12),
        onnx_proto.node("Transpose", ["z"], ["out"], perm=[1, 0]),
        onnx_proto.node("Attention", ["z", "wqkv", "bqkv"], ["att"], "com.microsoft", num_heads=2),
    ]
    inits = [
        onnx_proto.tensor(name, np.ones(shape, np.float32))
        for name, shape in (("w", (4, 4)), ("g", (4,)), ("b", (4,)), ("wqkv", (4, 12)), ("bqkv", (12,)))
    ]
    graph = onnx_proto.graph(
        "g",
        nodes,
        inits,
        [onnx_proto.value_info("x", onnx_proto.FLOAT, ["n", 4])],
        [onnx_proto.value_info("out", onnx_proto.FLOAT, [4, "n"])],
    )
    model = onnx.load_from_string(onnx_proto.model(graph, {"": 17, "com.microsoft": 1}, 8))
    assert model.ir_version == 8 and model.producer_name == "sodamem"
    assert {(o.domain, o.version) for o in model.opset_import} == {("", 17), ("com.microsoft", 1)}
    ops = ["MatMul", "Softmax", "LayerNormalization", "Transpose", "Attention"]
    assert [n.op_type for n in model.graph.node] == ops
    attrs = {a.name: onnx.helper.get_attribute_value(a) for n in model.graph.node for a in n.attribute}
    assert attrs["axis"] == -1 and attrs["perm"] == [1, 0] and attrs["num_heads"] == 2
    assert attrs["epsilon"] == pytest.approx(1e-12)
    assert model.graph.node[-1].domain == "com.microsoft"
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["n", 4]
    assert model.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    onnx.checker.check_model(model)


@needs_onnx
def test_the_bert_graph_passes_the_checker() -> None:
    import onnx

    from sodamem.embed.bert_onnx import build_graph
    from tests.test_bert_numpy import _tiny_weights

    whole = onnx.load_from_string(build_graph(_tiny_weights(), external_elements=10**9).model)
    onnx.checker.check_model(whole)  # the checker wants external data in files: checked with the data inside
    assert [i.name for i in whole.graph.input] == ["embedded", "attention_mask"]
    assert [o.name for o in whole.graph.output] == ["last_hidden_state"]
    # apart: the large initialisers are named, typed and shaped, with their data kept out of the bytes
    graph = build_graph(_tiny_weights(), external_elements=40)  # the tiny model's matrices, not its vectors
    model = onnx.load_from_string(graph.model)
    placeholders = {t.name: t for t in model.graph.initializer if t.data_location == onnx.TensorProto.EXTERNAL}
    assert set(placeholders) == set(graph.external) and graph.external
    for name, array in graph.external.items():
        assert list(placeholders[name].dims) == list(array.shape) and not placeholders[name].raw_data
    assert [n.op_type for n in model.graph.node] == [n.op_type for n in whole.graph.node]


@needs_onnx
def test_an_external_tensor_reads_back_as_a_reference() -> None:
    import onnx

    parsed = onnx.TensorProto.FromString(onnx_proto.external_tensor("w", np.zeros((3, 4), np.float32)))
    assert (parsed.name, list(parsed.dims), parsed.data_type) == ("w", [3, 4], onnx.TensorProto.FLOAT)
    assert parsed.data_location == onnx.TensorProto.EXTERNAL and not parsed.raw_data
    assert {e.key: e.value for e in parsed.external_data}["length"] == str(3 * 4 * 4)
