"""A fake CUDA device for testing GPU launch paths without a GPU: the real packing, a recording driver.

`FakeGpu` makes a `Device` whose backend claims to be a GPU, hands out `DeviceBuffer`s at made-up device
addresses (`ForeignAllocation`: nothing is dereferenced), and replaces `cuda_backend._driver()` with a driver
whose `cuLaunchKernel` decodes the `kernelParams` array it is given (one typed value per ABI slot, read from
the addresses the launcher passed) and records it (`launches`; `events` has the launches and the stream
synchronizes in call order).  Tile kernels get a loaded specialization whose compiled
part is a stand-in with a hand-written ABI (`fake_loaded`), so nothing is compiled either; SIMT kernels get a
`GpuLauncher` built on the same fake driver (`simt_launcher`).
"""

from __future__ import annotations

import ctypes
import itertools
import types
from collections.abc import Sequence
from typing import Any

from safekernels.codegen.param_plan import PlanEntry
from safekernels.dtypes import DType, dtype_of
from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation
from safekernels.runtime.cuda_backend import CudaStream
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.limits import CPU_EXECUTOR_LIMITS
from safekernels.simt import gpu_launch as simt_gpu_launch
from safekernels.tile import Partition, Tensor
from safekernels.tile.gpu_launch import TileGpuKernel

SUCCESS = object()
_ordinals = itertools.count(9100)
_CTYPES = {
    "i8": ctypes.c_int8,
    "i16": ctypes.c_int16,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "u8": ctypes.c_uint8,
    "u16": ctypes.c_uint16,
    "u32": ctypes.c_uint32,
    "u64": ctypes.c_uint64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
    "bool": ctypes.c_uint8,
    "f16": ctypes.c_uint16,
    "bf16": ctypes.c_uint16,
}


class TensorMapSlot(ctypes.Structure):
    """A by-value `CUtensorMap` parameter as the driver reads it: (address % 64, its 128 bytes)."""

    _fields_ = [("raw", ctypes.c_uint8 * 128)]

    @property
    def value(self) -> tuple[int, bytes]:
        return ctypes.addressof(self) % 64, bytes(self.raw)


class FakeBackend:
    """Synchronizes through the fake driver, as `CudaBackend` does (`None`: the whole device)."""

    name = "fake-gpu"

    def __init__(self, driver: FakeDriver) -> None:
        self.default_last_kernel: str | None = None
        self.syncs = 0
        self.driver = driver

    def synchronize(self, stream: Any) -> None:
        self.syncs += 1
        if stream is None:
            self.driver.events.append(("sync", None))
        else:
            self.driver.cuStreamSynchronize(stream.handle)


class FakeDriver:
    """The few `cuda.bindings.driver` names the launch paths use; `cuLaunchKernel` decodes and records."""

    def __init__(self) -> None:
        self.CUresult = types.SimpleNamespace(CUDA_SUCCESS=SUCCESS)
        self.launches: list[tuple[tuple[int, ...], Any, tuple[Any, ...]]] = []
        self.slot_types: Sequence[Any] = ()  # ctypes type of each kernel parameter, in ABI order
        self.events: list[tuple[str, Any]] = []  # ("launch" | "sync", stream), in call order

    def cuLaunchKernel(self, fn: Any, *rest: Any) -> tuple[Any, ...]:
        geometry, stream, params = tuple(rest[:7]), rest[7], int(rest[8])
        pointers = (ctypes.c_void_p * max(1, len(self.slot_types))).from_address(params)
        values = tuple(t.from_address(pointers[i]).value for i, t in enumerate(self.slot_types))
        self.launches.append((geometry, stream, values))
        self.events.append(("launch", stream))
        return (SUCCESS,)

    def cuStreamSynchronize(self, stream: Any) -> tuple[Any]:
        self.events.append(("sync", stream))
        return (SUCCESS,)


class FakeGpu:
    """One fake GPU device with its recording driver and a bump allocator of device addresses."""

    def __init__(self, monkeypatch: Any) -> None:
        self.driver = FakeDriver()
        monkeypatch.setattr("safekernels.runtime.cuda_backend._driver", lambda: self.driver)
        device = object.__new__(Device)
        device.ordinal = next(_ordinals)
        device.backend = FakeBackend(self.driver)  # type: ignore[assignment]
        device._limits = CPU_EXECUTOR_LIMITS
        device._default_stream = None
        self.device = device
        self.stream = Stream(device, CudaStream(0x5EED, owned=False))
        self._next = 0x7F0000000000

    def buffer(self, n: int, dtype: Any, *, misalign: int = 0) -> DeviceBuffer[Any]:
        dt: DType = dtype_of(dtype)
        ptr = self._next + misalign
        self._next += (n * dt.itemsize + 1023) // 256 * 256
        return DeviceBuffer(self.device, ForeignAllocation(ptr, n * dt.itemsize, None), dt, 0, n)

    def tensor(self, shape: tuple[int, ...], dtype: Any, *, misalign: int = 0) -> Tensor[Any]:
        n = 1
        for d in shape:
            n *= d
        return Tensor(self.buffer(n, dtype, misalign=misalign), shape)

    def partition(self, shape: tuple[int, ...], tile_shape: tuple[int, ...], dtype: Any) -> Partition[Any]:
        return self.tensor(shape, dtype).partition(tile_shape)

    def fake_loaded(self, kernel: Any, abi: Sequence[tuple[str, int, int]], threads: int = 128) -> TileGpuKernel:
        """A loaded tile specialization of `kernel` with ABI `abi` (what `codegen.tile` would report)."""
        loaded = object.__new__(TileGpuKernel)
        loaded.compiled = types.SimpleNamespace(name=kernel.name, abi=list(abi), threads=threads, smem_bytes=0)
        loaded.name = kernel.name
        loaded.module = None
        loaded.function = object()
        types_: list[Any] = []
        for kind, index, _axis in abi:
            if kind == "ptr":
                types_.append(ctypes.c_uint64)
            elif kind == "scalar":
                types_.append(_CTYPES[kernel.params[index].dtype.name])
            elif kind.startswith("tmap:"):
                types_.append(TensorMapSlot)
            else:
                types_.append(ctypes.c_int64)
        self.driver.slot_types = types_
        return loaded

    def simt_launcher(self, kernel: Any) -> simt_gpu_launch.GpuLauncher:
        """A real `GpuLauncher` for `kernel` on this device, minus the compile and the module load."""
        launcher = object.__new__(simt_gpu_launch.GpuLauncher)
        launcher.backend = self.device.backend  # type: ignore[assignment]
        launcher.name = kernel.name
        launcher.max_threads = 1024
        launcher.static_shared = 0
        launcher._dynamic_optin = 48 * 1024
        launcher.function = object()
        launcher._init_params([PlanEntry(p.name, p.kind, p.dtype.name) for p in kernel.params])
        launcher._cu_launch = self.driver.cuLaunchKernel
        launcher._success = SUCCESS
        self.driver.slot_types = [ctypes.c_uint64] * len(launcher.cells)
        simt_gpu_launch._LAUNCHERS.setdefault(kernel, {})[self.device.ordinal or 0] = launcher
        return launcher
