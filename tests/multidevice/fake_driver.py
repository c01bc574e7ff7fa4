"""A fake `cuda.bindings.driver` with several GPUs, so the real `CudaBackend` runs its multi-device code paths.

Unlike `tests/tile/fake_gpu.py` (one device, a stand-in backend), this replaces only the driver module: every
`Device(n)`, allocation, copy, stream, module load and launch goes through `runtime.cuda_backend` unchanged.
Device memory is host memory (numpy byte arrays), so copies really move bytes and tests can read them back.
The fake enforces the driver's context rules that matter across devices:

- a thread has one *current* context (`cuCtxSetCurrent`), none at first; allocations, stream creation, module
  loads, default-stream copies and `cuCtxSynchronize` act on it (none current: CUDA_ERROR_INVALID_CONTEXT);
- a kernel launch fails with CUDA_ERROR_INVALID_HANDLE unless its function and its stream belong to the
  current context (the CUDA programming guide: "a kernel launch will fail if it is issued to a stream that is
  not associated to the current device"), while copies work on any stream;
- `cuMemcpyPeerAsync` checks that each pointer lies in memory of the context it is paired with;
- `cuCtxEnablePeerAccess` needs `cuDeviceCanAccessPeer` (the `peer_pairs` the test declares) and answers
  CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED the second time, as the real driver does.

`events` records what happened, in order, with the ordinal of the context each call ran in.
"""

from __future__ import annotations

import ctypes
import enum
import threading
import types
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np


class Result(enum.Enum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_INVALID_CONTEXT = 201
    CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217
    CUDA_ERROR_INVALID_HANDLE = 400
    CUDA_ERROR_NOT_READY = 600
    CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704


OK = Result.CUDA_SUCCESS


class Handle:
    """A driver handle: an int value (`int(h)`) plus what the fake needs to know about it."""

    def __init__(self, value: int, **attrs: Any) -> None:
        self.value = value
        self.__dict__.update(attrs)

    def __int__(self) -> int:
        return self.value

    def __getattr__(self, name: str) -> Any:  # the attributes given at construction (typed loosely)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"Handle({self.value:#x})"


class FakeCudaDriver:
    """The driver calls `runtime.cuda_backend`, `simt.gpu_launch` and `tile.gpu_launch` make, on `len(ccs)` GPUs."""

    CUresult = Result

    def __init__(
        self, ccs: Iterable[tuple[int, int]] = ((9, 0), (9, 0)), peer_pairs: Iterable[tuple[int, int]] = ()
    ) -> None:
        self.ccs = list(ccs)
        self.peer_pairs = set(peer_pairs)  # (accessor, owner) ordinals that cuDeviceCanAccessPeer allows
        self.devices = [Handle(i, ordinal=i) for i in range(len(self.ccs))]
        self.contexts = [Handle(0xC0000 + i, ordinal=i) for i in range(len(self.ccs))]
        self._current = threading.local()
        self.memory: dict[int, tuple[int, np.ndarray[Any, Any]]] = {}  # address -> (ordinal, its bytes)
        self.events: list[tuple[Any, ...]] = []
        self.launches: list[dict[str, Any]] = []
        self.peer_enabled: set[tuple[int, int]] = set()
        self.module_loads: list[tuple[int, bytes]] = []
        self.slot_counts: dict[str, int] = {}  # kernel name -> how many 8-byte parameter slots to decode
        self.events_not_ready = 0  # cuEventQuery answers NOT_READY this many times
        self._handles = 0x10000
        self.CUdevice_attribute = types.SimpleNamespace()
        self.CUfunction_attribute = types.SimpleNamespace()
        self.CUpointer_attribute = types.SimpleNamespace(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL="DEVICE_ORDINAL")
        self.CUstream_flags = types.SimpleNamespace(CU_STREAM_DEFAULT=0, CU_STREAM_NON_BLOCKING=1)
        self.CUevent_flags = types.SimpleNamespace(CU_EVENT_DISABLE_TIMING=2)
        for name in _DEVICE_ATTRIBUTES:
            setattr(self.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}", name)
        for name in ("MAX_THREADS_PER_BLOCK", "SHARED_SIZE_BYTES", "MAX_DYNAMIC_SHARED_SIZE_BYTES"):
            setattr(self.CUfunction_attribute, f"CU_FUNC_ATTRIBUTE_{name}", name)

    # -- helpers --------------------------------------------------------------------------------------------
    def _handle(self, **attrs: Any) -> Handle:
        self._handles += 0x10
        return Handle(self._handles, **attrs)

    @property
    def current(self) -> Handle | None:
        ctx: Handle | None = getattr(self._current, "ctx", None)
        return ctx

    def current_ordinal(self) -> int | None:
        ctx = self.current
        return None if ctx is None else int(ctx.ordinal)

    def _stream_context(self, stream: Any) -> Handle | None:
        """The context a stream argument belongs to (0: the current context's default stream)."""
        if isinstance(stream, Handle):
            ctx: Handle | None = stream.ctx
            return ctx
        return self.current

    def owner_of(self, ptr: int, nbytes: int = 1) -> int | None:
        for base, (ordinal, array) in self.memory.items():
            if base <= ptr and ptr + nbytes <= base + array.nbytes:
                return ordinal
        return None

    def read(self, ptr: int, nbytes: int) -> bytes:
        return ctypes.string_at(ptr, nbytes)

    # -- initialization, devices, contexts --------------------------------------------------------------------
    def cuInit(self, flags: int) -> tuple[Result]:
        return (OK,)

    def cuDeviceGetCount(self) -> tuple[Result, int]:
        return OK, len(self.devices)

    def cuDeviceGet(self, ordinal: int) -> tuple[Result, Any]:
        if not 0 <= ordinal < len(self.devices):
            return Result.CUDA_ERROR_INVALID_VALUE, None
        return OK, self.devices[ordinal]

    def cuDevicePrimaryCtxRetain(self, device: Handle) -> tuple[Result, Handle]:
        return OK, self.contexts[device.ordinal]

    def cuCtxSetCurrent(self, ctx: Any) -> tuple[Result]:
        self._current.ctx = ctx if isinstance(ctx, Handle) and int(ctx) else None  # None / CUcontext(0): unbind
        self.events.append(("set_current", None if self._current.ctx is None else ctx.ordinal))
        return (OK,)

    def cuCtxGetCurrent(self) -> tuple[Result, Any]:
        return OK, self.current if self.current is not None else Handle(0)

    def cuCtxGetDevice(self) -> tuple[Result, Any]:
        if self.current is None:
            return Result.CUDA_ERROR_INVALID_CONTEXT, None
        return OK, self.devices[int(self.current.ordinal)]

    def cuCtxSynchronize(self) -> tuple[Result]:
        if self.current is None:
            return (Result.CUDA_ERROR_INVALID_CONTEXT,)
        self.events.append(("ctx_sync", self.current_ordinal()))
        return (OK,)

    def cuDeviceGetAttribute(self, attr: str, device: Handle) -> tuple[Result, int]:
        major, minor = self.ccs[device.ordinal]
        values = {**_DEVICE_ATTRIBUTES, "COMPUTE_CAPABILITY_MAJOR": major, "COMPUTE_CAPABILITY_MINOR": minor}
        return OK, values[attr]

    def cuDeviceGetName(self, length: int, device: Handle) -> tuple[Result, bytes]:
        return OK, f"Fake GPU {device.ordinal}".encode() + b"\0"

    def cuDeviceTotalMem(self, device: Handle) -> tuple[Result, int]:
        return OK, 1 << 30

    def cuDeviceCanAccessPeer(self, device: Handle, peer: Handle) -> tuple[Result, int]:
        return OK, int((device.ordinal, peer.ordinal) in self.peer_pairs)

    def cuCtxEnablePeerAccess(self, peer_ctx: Handle, flags: int) -> tuple[Result]:
        me = self.current_ordinal()
        if me is None:
            return (Result.CUDA_ERROR_INVALID_CONTEXT,)
        pair = (me, int(peer_ctx.ordinal))
        if pair not in self.peer_pairs:
            return (Result.CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,)
        if pair in self.peer_enabled:
            return (Result.CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,)
        self.peer_enabled.add(pair)
        self.events.append(("enable_peer", *pair))
        return (OK,)

    # -- memory -----------------------------------------------------------------------------------------------
    def cuMemAlloc(self, nbytes: int) -> tuple[Result, int]:
        ordinal = self.current_ordinal()
        if ordinal is None:
            return Result.CUDA_ERROR_INVALID_CONTEXT, 0
        raw = np.zeros(nbytes + 256, dtype=np.uint8)
        offset = (-raw.ctypes.data) % 256
        array = raw[offset : offset + nbytes]
        self.memory[int(array.ctypes.data)] = (ordinal, array)
        self.events.append(("alloc", ordinal, nbytes))
        return OK, int(array.ctypes.data)

    def cuMemFree(self, ptr: int) -> tuple[Result]:
        self.memory.pop(int(ptr), None)
        return (OK,)

    def _copy_on(self, what: str, stream: Any, dst: int, src: int, nbytes: int) -> tuple[Result]:
        ctx = self._stream_context(stream)
        if ctx is None:
            return (Result.CUDA_ERROR_INVALID_CONTEXT,)
        ctypes.memmove(dst, src, nbytes)
        self.events.append((what, int(ctx.ordinal), nbytes))
        return (OK,)

    def cuMemcpyHtoDAsync(self, dst: int, src: int, nbytes: int, stream: Any) -> tuple[Result]:
        if self.owner_of(dst, nbytes) is None:
            return (Result.CUDA_ERROR_INVALID_VALUE,)
        return self._copy_on("htod", stream, dst, src, nbytes)

    def cuMemcpyDtoHAsync(self, dst: int, src: int, nbytes: int, stream: Any) -> tuple[Result]:
        if self.owner_of(src, nbytes) is None:
            return (Result.CUDA_ERROR_INVALID_VALUE,)
        return self._copy_on("dtoh", stream, dst, src, nbytes)

    def cuMemcpyDtoDAsync(self, dst: int, src: int, nbytes: int, stream: Any) -> tuple[Result]:
        return self._copy_on("dtod", stream, dst, src, nbytes)

    def cuMemcpyPeerAsync(
        self, dst: int, dst_ctx: Handle, src: int, src_ctx: Handle, nbytes: int, stream: Any
    ) -> tuple[Result]:
        if self.owner_of(dst, nbytes) != dst_ctx.ordinal or self.owner_of(src, nbytes) != src_ctx.ordinal:
            return (Result.CUDA_ERROR_INVALID_VALUE,)
        ctx = self._stream_context(stream)
        if ctx is None:
            return (Result.CUDA_ERROR_INVALID_CONTEXT,)
        ctypes.memmove(dst, src, nbytes)
        direct = (int(dst_ctx.ordinal), int(src_ctx.ordinal)) in self.peer_enabled
        self.events.append(("peer_copy", int(src_ctx.ordinal), int(dst_ctx.ordinal), int(ctx.ordinal), direct))
        return (OK,)

    def cuMemsetD8Async(self, ptr: int, value: int, nbytes: int, stream: Any) -> tuple[Result]:
        if self._stream_context(stream) is None:
            return (Result.CUDA_ERROR_INVALID_CONTEXT,)
        ctypes.memset(ptr, value, nbytes)
        return (OK,)

    def cuPointerGetAttribute(self, attr: str, ptr: int) -> tuple[Result, int]:
        owner = self.owner_of(int(ptr))
        return (OK, owner) if owner is not None else (Result.CUDA_ERROR_INVALID_VALUE, -1)

    # -- streams and events ---------------------------------------------------------------------------------------
    def cuStreamCreate(self, flags: int) -> tuple[Result, Any]:
        if self.current is None:
            return Result.CUDA_ERROR_INVALID_CONTEXT, None
        return OK, self._handle(ctx=self.current)

    def cuStreamDestroy(self, stream: Any) -> tuple[Result]:
        return (OK,)

    def cuStreamSynchronize(self, stream: Any) -> tuple[Result]:
        ctx = self._stream_context(stream)
        self.events.append(("stream_sync", None if ctx is None else int(ctx.ordinal)))
        return (OK,)

    def CUstream(self, raw: int) -> Handle:
        return Handle(raw, ctx=self.current)

    def cuEventCreate(self, flags: int) -> tuple[Result, Handle]:
        return OK, self._handle(ctx=None)

    def cuEventRecord(self, event: Handle, stream: Any) -> tuple[Result]:
        ctx = self._stream_context(stream)
        if ctx is None:
            return (Result.CUDA_ERROR_INVALID_CONTEXT,)
        event.__dict__["ctx"] = ctx
        self.events.append(("record", int(ctx.ordinal)))
        return (OK,)

    def cuStreamWaitEvent(self, stream: Any, event: Handle, flags: int) -> tuple[Result]:
        ctx = self._stream_context(stream)
        self.events.append(("wait", None if ctx is None else int(ctx.ordinal), int(event.ctx.ordinal)))
        return (OK,)

    def cuEventQuery(self, event: Handle) -> tuple[Result]:
        if self.events_not_ready > 0:
            self.events_not_ready -= 1
            return (Result.CUDA_ERROR_NOT_READY,)
        return (OK,)

    def cuEventDestroy(self, event: Handle) -> tuple[Result]:
        return (OK,)

    # -- modules and launches ---------------------------------------------------------------------------------------
    def cuModuleLoadData(self, image: bytes) -> tuple[Result, Any]:
        ordinal = self.current_ordinal()
        if ordinal is None:
            return Result.CUDA_ERROR_INVALID_CONTEXT, None
        self.module_loads.append((ordinal, bytes(image)))
        return OK, self._handle(ctx=self.current)

    def cuModuleGetFunction(self, module: Handle, name: bytes) -> tuple[Result, Handle]:
        return OK, self._handle(ctx=module.ctx, name=name.decode())

    def cuFuncGetAttribute(self, attr: str, function: Handle) -> tuple[Result, int]:
        return OK, {"MAX_THREADS_PER_BLOCK": 1024, "SHARED_SIZE_BYTES": 0}.get(attr, 0)

    def cuFuncSetAttribute(self, function: Handle, attr: str, value: int) -> tuple[Result]:
        return (OK,)

    def cuLaunchKernel(self, fn: Handle, *rest: Any) -> tuple[Result]:
        grid, stream, params = rest[0:3], rest[7], rest[8]
        current = self.current
        if current is None:
            return (Result.CUDA_ERROR_INVALID_CONTEXT,)
        stream_ctx = self._stream_context(stream)
        if fn.ctx is not current or stream_ctx is not current:
            return (Result.CUDA_ERROR_INVALID_HANDLE,)
        count = self.slot_counts.get(fn.name, 0)
        slots: tuple[int, ...] = ()
        if count:
            pointers = (ctypes.c_void_p * count).from_address(int(params))
            slots = tuple(ctypes.c_uint64.from_address(int(pointers[i] or 0)).value for i in range(count))
        ordinal = int(current.ordinal)  # type: ignore[union-attr]  # `current` is a property: not narrowed
        self.launches.append({"device": ordinal, "kernel": fn.name, "grid": grid, "slots": slots})
        self.events.append(("launch", ordinal, fn.name))
        return (OK,)


_DEVICE_ATTRIBUTES: dict[str, int] = {
    "COMPUTE_CAPABILITY_MAJOR": 9,
    "COMPUTE_CAPABILITY_MINOR": 0,
    "MAX_GRID_DIM_X": 2**31 - 1,
    "MAX_GRID_DIM_Y": 65535,
    "MAX_GRID_DIM_Z": 65535,
    "MAX_BLOCK_DIM_X": 1024,
    "MAX_BLOCK_DIM_Y": 1024,
    "MAX_BLOCK_DIM_Z": 64,
    "MAX_THREADS_PER_BLOCK": 1024,
    "MAX_SHARED_MEMORY_PER_BLOCK": 48 * 1024,
    "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN": 227 * 1024,
    "WARP_SIZE": 32,
    "MULTIPROCESSOR_COUNT": 132,
}

#: the `fake_gpus` fixture: `fake_gpus(ccs=..., peer_pairs=...)` installs a driver with those GPUs and returns it
MakeGpus = Callable[..., FakeCudaDriver]
