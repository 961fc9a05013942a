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

    from sodamem.embed.bert_onnx import build_model
    from tests.test_bert_numpy import _tiny_weights

    model = onnx.load_from_string(build_model(_tiny_weights()))
    onnx.checker.check_model(model)
    assert [i.name for i in model.graph.input] == ["input_ids", "token_type_ids", "position_ids", "attention_mask"]
    assert [o.name for o in model.graph.output] == ["last_hidden_state"]
