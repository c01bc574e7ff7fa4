"""The FFI handler on hand-built XLA call frames: no JAX needed, so these run in CI.

XLA calls `safekernels_launch` with an `XLA_FFI_CallFrame*`; here the frames are laid out in ctypes exactly as
XLA:CPU lays them out (host buffers, one int64 `call` attribute) and passed through the real C trampoline, with
an `XLA_FFI_Api` table whose `Error_Create` records the message.  Pinned too: the struct sizes XLA itself
reported to a handler on JAX 0.11.2 (call frame 168 bytes, buffer 48, API table 200), since a field declared one
slot off would read garbage instead of failing.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np
import pytest

import safekernels.jax as skj
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.jax import ffi_target, xla_ffi
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

ERROR = 0xE77  # what the fake Error_Create returns: a non-null XLA_FFI_Error*


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


@simt.kernel
@simt.launch_contract(block=128)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


class FakeXla:
    """An XLA_FFI_Api table and the call frames XLA:CPU would pass (every ctypes object kept alive here)."""

    def __init__(self) -> None:
        self.errors: list[tuple[str, int]] = []
        self._keep: list[Any] = []
        create = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.POINTER(xla_ffi.ErrorCreateArgs))(self._error_create)
        destroy = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(lambda _: None)
        self.api = xla_ffi.Api(struct_size=xla_ffi.struct_size(xla_ffi.Api, "InvokeContext_FindExtension"))
        self.api.Error_Create = ctypes.cast(create, ctypes.c_void_p).value
        self.api.Error_Destroy = ctypes.cast(destroy, ctypes.c_void_p).value
        self._keep += [create, destroy]

    def _error_create(self, args: Any) -> int:
        self.errors.append((args.contents.message.decode(), args.contents.errc))
        return ERROR

    def _buffers(self, arrays: list[np.ndarray[Any, Any]]) -> tuple[Any, Any]:
        buffers = []
        for a in arrays:
            dims = (ctypes.c_int64 * a.ndim)(*a.shape)
            buffers.append(xla_ffi.Buffer(xla_ffi.BUFFER_SIZE, None, 11, a.ctypes.data, a.ndim, dims))  # F32
            self._keep.append(dims)
        self._keep += buffers
        types = (ctypes.c_int * len(arrays))(*[xla_ffi.ARG_BUFFER] * len(arrays))
        table = (ctypes.c_void_p * len(arrays))(*[ctypes.addressof(b) for b in buffers])
        self._keep += [types, table]
        return types, table

    def frame(
        self, call: int, args: list[np.ndarray[Any, Any]], rets: list[np.ndarray[Any, Any]], **fields: Any
    ) -> xla_ffi.CallFrame:
        arg_types, arg_table = self._buffers(args)
        ret_types, ret_table = self._buffers(rets)
        name = ctypes.create_string_buffer(b"call")
        span = xla_ffi.ByteSpan(ctypes.addressof(name), 4)
        value = ctypes.c_int64(call)
        scalar = xla_ffi.Scalar(5, ctypes.addressof(value))  # S64
        names = (ctypes.POINTER(xla_ffi.ByteSpan) * 1)(ctypes.pointer(span))
        attr_types = (ctypes.c_int * 1)(xla_ffi.ATTR_SCALAR)
        attrs = (ctypes.c_void_p * 1)(ctypes.addressof(scalar))
        self._keep += [name, span, value, scalar, names, attr_types, attrs]
        frame = xla_ffi.CallFrame(
            struct_size=xla_ffi.CALL_FRAME_SIZE,
            api=ctypes.addressof(self.api),
            stage=xla_ffi.STAGE_EXECUTE,
            args=xla_ffi.Args(xla_ffi.struct_size(xla_ffi.Args, "args"), None, len(args), arg_types, arg_table),
            rets=xla_ffi.Rets(xla_ffi.struct_size(xla_ffi.Rets, "rets"), None, len(rets), ret_types, ret_table),
            attrs=xla_ffi.Attrs(xla_ffi.struct_size(xla_ffi.Attrs, "attrs"), None, 1, attr_types, names, attrs),
        )
        for key, v in fields.items():
            setattr(frame, key, v)
        self._keep.append(frame)
        return frame


def _call(frame: xla_ffi.CallFrame) -> int:
    """Through the C trampoline, as XLA calls it; the returned XLA_FFI_Error* (0: success)."""
    return int(ffi_target._Handler("cpu").trampoline(ctypes.addressof(frame)) or 0)


def _plan(kernel: Any, arrays: dict[str, np.ndarray[Any, Any]], static: dict[str, Any], **options: Any) -> int:
    k = skj.jax_kernel(kernel, **options)
    shapes = {p.name: arrays[p.name].shape for p in k.signature.outputs}
    dtypes = {p.name: k._output_dtype(p, arrays) for p in k.signature.outputs}
    n_args = sum(p.role == "input" for p in k.signature.arguments)
    return k._plan(arrays, shapes, dtypes, static, [], n_args)


def test_struct_sizes_are_the_ones_xla_reports() -> None:
    assert xla_ffi.CALL_FRAME_SIZE == 168 and xla_ffi.BUFFER_SIZE == 48
    assert xla_ffi.struct_size(xla_ffi.Api, "InvokeContext_FindExtension") == 200
    assert (xla_ffi.METADATA_SIZE, xla_ffi.METADATA_EXTENSION_SIZE, xla_ffi.API_VERSION_SIZE) == (36, 32, 24)
    assert (xla_ffi.ERROR_CREATE_ARGS_SIZE, xla_ffi.STREAM_GET_ARGS_SIZE) == (28, 32)
    assert xla_ffi.DEVICE_ORDINAL_GET_ARGS_SIZE == 28


def test_a_frame_launches_the_planned_kernel_on_its_buffers() -> None:
    x, y = np.arange(300, dtype=np.float32), np.full(300, 0.5, np.float32)
    z = np.full(300, np.nan, np.float32)  # XLA's output memory is garbage: every element must be written
    call = _plan(add, {"x": x, "y": y, "z": z}, {}, outputs={"z": "x"}, tile_shapes={"z": (128,)})
    xla = FakeXla()
    assert _call(xla.frame(call, [x, y], [z])) == 0, xla.errors
    np.testing.assert_array_equal(z, x + 0.5)


def test_a_simt_output_is_zeroed_and_static_scalars_come_from_the_plan() -> None:
    x = np.arange(1000, dtype=np.float32)
    out = np.full(1000, np.nan, np.float32)
    call = _plan(saxpy, {"x": x, "y": x, "out": out}, {"alpha": 2.0}, outputs={"out": "x"})
    xla = FakeXla()
    assert _call(xla.frame(call, [x, x], [out])) == 0, xla.errors
    np.testing.assert_array_equal(out, 3.0 * x)


def test_the_metadata_query_is_answered_with_our_api_version() -> None:
    metadata = xla_ffi.Metadata(struct_size=xla_ffi.METADATA_SIZE, traits=0xFF)
    extension = xla_ffi.MetadataExtension(
        xla_ffi.InternalExtension(xla_ffi.METADATA_EXTENSION_SIZE, xla_ffi.EXTENSION_METADATA, None),
        ctypes.pointer(metadata),
    )
    xla = FakeXla()
    frame = xla.frame(
        0, [], [], extension_start=ctypes.cast(ctypes.pointer(extension), ctypes.POINTER(xla_ffi.InternalExtension))
    )
    assert _call(frame) == 0
    version = metadata.api_version
    assert (version.struct_size, version.major_version, version.minor_version) == (24, 0, 4)
    assert metadata.traits == 0  # not command-buffer compatible: never captured into a CUDA graph


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("token", "names no plan of this process: it was traced by another process"),
        ("frame_size", "XLA_FFI_CallFrame is 100 bytes, expected 168"),
        ("operands", "the call has 1 operands and 1 results, its plan 2 and 1"),
        ("launch", "safekernels_launch (jax_kernel(saxpy)): ValueError: no launch configuration"),
    ],
)
def test_failures_become_xla_errors_with_their_cause(setup: str, message: str) -> None:
    x = np.ones(64, np.float32)
    out = np.zeros(64, np.float32)

    def no_config(**_: Any) -> Any:
        raise ValueError("no launch configuration")

    options: dict[str, Any] = {"outputs": {"out": "x"}, **({"launch": no_config} if setup == "launch" else {})}
    call = _plan(saxpy, {"x": x, "y": x, "out": out}, {"alpha": 1.0}, **options)
    xla = FakeXla()
    args = [x] if setup == "operands" else [x, x]
    frame = xla.frame(call ^ (1 << ffi_target.INDEX_BITS) if setup == "token" else call, args, [out])
    if setup == "frame_size":
        frame.struct_size = 100
    assert _call(frame) == ERROR
    [(text, code)] = xla.errors
    assert message in text and code in (xla_ffi.ERROR_INTERNAL, xla_ffi.ERROR_INVALID_ARGUMENT)
