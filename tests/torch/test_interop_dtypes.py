"""Every element type crosses DLPack both ways, without any framework installed (runs in CI).

The bridges to torch and JAX rest on this: `to_dlpack` / `DLPackView` name each dtype with its DLPack code
(bf16 and the 8-bit floats have codes of their own, no `__cuda_array_interface__` typestr), and
`buffer_from_dlpack` reads them back.  Host memory (the CPU executor's) travels as `kDLCPU`; numpy, a real
consumer, reads every dtype it has.  The framework rows (torch CPU/CUDA tensors, JAX arrays) are in
`test_torch_dtypes.py` and `tests/jax/`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import safekernels as sk
from safekernels.dtypes import ALL_DTYPES, DType, dtype_of
from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.interop import DLPackView, buffer_from_dlpack

DTYPES = [cls.__dtype__ for cls in ALL_DTYPES]  # type: ignore[attr-defined]
NUMPY_HAS = {"f16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool"}


def _host_buffer(dt: DType, n: int = 7) -> tuple[DeviceBuffer[Any], np.ndarray[Any, Any]]:
    bits = (np.arange(n) % 2).astype(dt.storage) if dt.name == "bool" else np.arange(n).astype(dt.storage)
    plain = sk.as_buffer(bits)
    return DeviceBuffer(plain.device, plain.allocation, dt, 0, n), bits


class HostExporter:
    """Only DLPack (no numpy type, no array interface): what a CPU torch tensor or JAX array offers."""

    def __init__(self, view: DLPackView) -> None:
        self.view = view

    def __dlpack__(self, *, stream: Any = None) -> Any:
        return self.view.__dlpack__(stream=stream)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.view.__dlpack_device__()


def test_the_dtype_table_covers_the_language() -> None:
    assert {d.name for d in DTYPES} == {
        "f16", "bf16", "f8e4m3", "f8e5m2", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
        "bool",
    }  # fmt: skip


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.name)
def test_host_buffers_round_trip_through_dlpack(dt: DType) -> None:
    buffer, bits = _host_buffer(dt)
    assert DLPackView(buffer).__dlpack_device__() == buffer.__dlpack_device__() == (1, 0)  # kDLCPU
    back = buffer_from_dlpack(HostExporter(DLPackView(buffer)))
    itself = buffer_from_dlpack(buffer)  # `DeviceBuffer.__dlpack__` names bf16 / fp8 on the host too
    assert (itself.dtype, itself.ptr) == (dt, buffer.ptr)
    assert (back.dtype, back.length, back.ptr, back.device) == (dt, 7, buffer.ptr, sk.Device.cpu())
    back_bits = back.allocation.array.view(dt.storage)  # type: ignore[attr-defined]
    np.testing.assert_array_equal(back_bits, bits)
    # the import shares memory: a write through it is seen by the exporter's array
    back_bits[0] = bits[1]
    assert bits[0] == bits[1]
    # and `sk.as_buffer` takes the DLPack-only object the same way
    again = sk.as_buffer(HostExporter(DLPackView(buffer)))
    assert (again.dtype, again.ptr) == (dt, buffer.ptr)


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.name)
def test_numpy_reads_every_dtype_it_has(dt: DType) -> None:
    buffer, bits = _host_buffer(dt)
    if dt.name not in NUMPY_HAS:
        with pytest.raises((TypeError, BufferError, RuntimeError, SystemError)):
            np.from_dlpack(DLPackView(buffer))  # numpy has no bf16 / fp8: it refuses the code
        return
    for exporter in (DLPackView(buffer), buffer):  # the buffer exports itself the same way
        seen = np.from_dlpack(exporter)
        assert seen.dtype == np.dtype(dt.storage) and seen.ctypes.data == buffer.ptr
        np.testing.assert_array_equal(seen, bits)


def test_dlpack_codes_of_the_encoded_types() -> None:
    import ctypes

    from safekernels.runtime.interop import _api, _DLManagedTensor, to_dlpack

    codes = {}
    for name in ("bf16", "f8e4m3", "f8e5m2", "bool"):
        buffer, _ = _host_buffer(dtype_of(name))
        capsule = to_dlpack(buffer)
        managed = ctypes.cast(_api.PyCapsule_GetPointer(capsule, b"dltensor"), ctypes.POINTER(_DLManagedTensor))
        dtype = managed.contents.dl_tensor.dtype
        codes[name] = (dtype.code, dtype.bits)
    assert codes == {"bf16": (4, 16), "f8e4m3": (10, 8), "f8e5m2": (12, 8), "bool": (6, 8)}


def test_host_memory_is_refused_for_a_gpu_device_by_name() -> None:
    buffer, _ = _host_buffer(dtype_of("f32"))

    class FakeGpu:
        is_cpu = False

        def __repr__(self) -> str:
            return "Device(0)"

    with pytest.raises(ValueError, match=r"in host memory; it cannot be a buffer on Device\(0\)"):
        buffer_from_dlpack(HostExporter(DLPackView(buffer)), FakeGpu())
