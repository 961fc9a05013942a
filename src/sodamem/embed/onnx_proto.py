"""The few ONNX protobuf messages a built-in-memory graph needs, written in the protobuf wire format.

:mod:`sodamem.embed.bert_onnx` hands onnxruntime a model it builds from weights at load time. The ``onnx`` package
would write it too, but importing it costs a served process about a second of its cold start and the install
30 MB, for a dozen fields: a model, its graph, nodes with int, float and ints attributes, typed inputs and outputs,
and initialisers as raw little-endian bytes. Large initialisers can be left out of the bytes altogether
(:func:`external_tensor`) and handed to onnxruntime as arrays. The field numbers are those of ``onnx/onnx.proto``
(proto2); the tests read what this writes back with the ``onnx`` package and its checker.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

# TensorProto.DataType
FLOAT = 1
INT8 = 3
INT32 = 6
INT64 = 7
_DATA_TYPES = {
    np.dtype(np.float32): FLOAT,
    np.dtype(np.int8): INT8,
    np.dtype(np.int32): INT32,
    np.dtype(np.int64): INT64,
}
_EXTERNAL = 1  # TensorProto.DataLocation
# AttributeProto.AttributeType
_ATTR_FLOAT, _ATTR_INT, _ATTR_INTS = 1, 2, 7

_VARINT, _FIXED32, _BYTES = 0, 5, 2


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # a negative int64 is its two's complement: ten bytes
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return _varint(field << 3 | wire_type)


def _int(field: int, value: int) -> bytes:
    return _key(field, _VARINT) + _varint(value)


def _bytes(field: int, value: bytes) -> bytes:
    return _key(field, _BYTES) + _varint(len(value)) + value


def _str(field: int, value: str) -> bytes:
    return _bytes(field, value.encode("utf-8"))


def tensor(name: str, array: np.ndarray[Any, Any]) -> bytes:
    """TensorProto: dims (1), data_type (2), name (8), raw_data (9), little-endian."""
    raw = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()
    return _tensor_header(name, array) + _bytes(9, raw)


def external_tensor(name: str, array: np.ndarray[Any, Any]) -> bytes:
    """A TensorProto that holds no data, only ``array``'s name, shape and type and a reference to data kept
    elsewhere (data_location EXTERNAL, 14; external_data, 13, as key/value pairs): onnxruntime takes the values from
    ``SessionOptions.add_external_initializers`` instead, so they are never serialised."""
    where = (("location", "in-memory"), ("offset", "0"), ("length", str(array.nbytes)))
    external = b"".join(_bytes(13, _str(1, key) + _str(2, value)) for key, value in where)
    return _tensor_header(name, array) + external + _int(14, _EXTERNAL)


def _tensor_header(name: str, array: np.ndarray[Any, Any]) -> bytes:
    """A TensorProto's dims (1), data_type (2) and name (8)."""
    data_type = _DATA_TYPES.get(array.dtype)
    if data_type is None:
        raise ValueError(f"tensor {name}: dtype {array.dtype} is not one of float32, int8, int32, int64")
    return b"".join(_int(1, d) for d in array.shape) + _int(2, data_type) + _str(8, name)


def attribute(name: str, value: int | float | Sequence[int]) -> bytes:
    """AttributeProto: name (1), f (2), i (3), ints (8), type (20)."""
    if isinstance(value, bool) or not isinstance(value, int | float | Sequence):
        raise TypeError(f"attribute {name}: {value!r} is not an int, a float or a list of ints")
    if isinstance(value, int):
        return _str(1, name) + _int(3, value) + _int(20, _ATTR_INT)
    if isinstance(value, float):
        return _str(1, name) + _key(2, _FIXED32) + struct.pack("<f", value) + _int(20, _ATTR_FLOAT)
    return _str(1, name) + b"".join(_int(8, v) for v in value) + _int(20, _ATTR_INTS)


def node(
    op_type: str,
    inputs: Sequence[str],
    outputs: Sequence[str],
    domain: str = "",
    **attributes: int | float | Sequence[int],
) -> bytes:
    """NodeProto: input (1), output (2), op_type (4), attribute (5), domain (7)."""
    parts = [_str(1, i) for i in inputs] + [_str(2, o) for o in outputs] + [_str(4, op_type)]
    parts += [_bytes(5, attribute(name, value)) for name, value in attributes.items()]
    if domain:
        parts.append(_str(7, domain))
    return b"".join(parts)


def value_info(name: str, elem_type: int, shape: Sequence[int | str]) -> bytes:
    """ValueInfoProto (1 name, 2 type) of a tensor: TypeProto.tensor_type (1) with elem_type (1) and shape (2), whose
    dims (1) are fixed sizes (dim_value, 1) or named free ones (dim_param, 2)."""
    dims = b"".join(_bytes(1, _int(1, d) if isinstance(d, int) else _str(2, d)) for d in shape)
    tensor_type = _int(1, elem_type) + _bytes(2, dims)
    return _str(1, name) + _bytes(2, _bytes(1, tensor_type))


def graph(
    name: str, nodes: Sequence[bytes], initializers: Sequence[bytes], inputs: Sequence[bytes], outputs: Sequence[bytes]
) -> bytes:
    """GraphProto: node (1), name (2), initializer (5), input (11), output (12)."""
    parts = [_bytes(1, n) for n in nodes] + [_str(2, name)] + [_bytes(5, t) for t in initializers]
    parts += [_bytes(11, i) for i in inputs] + [_bytes(12, o) for o in outputs]
    return b"".join(parts)


def model(graph_bytes: bytes, opsets: dict[str, int], ir_version: int, producer: str = "sodamem") -> bytes:
    """ModelProto: ir_version (1), producer_name (2), graph (7), opset_import (8: domain 1, version 2)."""
    opset_parts = [_bytes(8, (_str(1, domain) if domain else b"") + _int(2, v)) for domain, v in opsets.items()]
    return _int(1, ir_version) + _str(2, producer) + _bytes(7, graph_bytes) + b"".join(opset_parts)
