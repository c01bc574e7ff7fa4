"""The `safekernels_launch` XLA FFI target: XLA hands a kernel its device buffers and stream, no host copy.

One handler serves every `jax_kernel` call site.  Tracing a call plans it (`FfiCallPlan`: which operand and
result buffer is which kernel parameter, with the shapes and dtypes JAX already knows, and the scalars whose
values are static) and files the plan in a process-wide table; the HLO custom call carries only the plan's
index, as the int64 attribute `call` (with this process's random token in its high bits, so that an executable
traced by another process, from a persistent compilation cache or `jax.export`, is refused instead of
launching whatever this process filed under the same index):

    trace:  jax_kernel(x, 2.0) ──▶ plan (shapes, dtypes, static scalars) ──▶ ffi_call("safekernels_launch",
                                                                              x, call=<index>)
    run:    XLA ──▶ handler(XLA_FFI_CallFrame*) ──▶ plans[call] ──▶ buffers over the frame's device addresses
                      (a ctypes callback)           ──▶ OpLauncher.launch on XLA's own CUstream (CUDA)
                                                        or on the CPU executor (XLA:CPU host buffers)

The handler is a Python function behind a `ctypes.CFUNCTYPE` trampoline, registered for the CUDA and the CPU
platform (`xla_ffi` mirrors the C structs it reads).  It runs when XLA reaches the call in its host-side
schedule; on CUDA it only enqueues the kernel on XLA's stream, so results stay on the device and ordering with
the XLA ops around it is the stream's.  Scalars that are traced values arrive as 0-d operands: on CUDA their
values are read back with a copy and a stream synchronize (a small host round trip that static scalars avoid).

Errors: an exception inside the handler is turned into an `XLA_FFI_Error` carrying its message (JAX raises it
as `JaxRuntimeError`); nothing escapes into the ctypes trampoline, whose only other answer would be "success".
The handler declares no command-buffer trait, so XLA never captures it into a CUDA graph (a first launch may
load a module or build a launch plan, which a capture must not see).
"""

from __future__ import annotations

import ctypes
import secrets
import threading
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from safekernels.dtypes import DType
from safekernels.frameworks.launcher import OpLauncher
from safekernels.jax import xla_ffi
from safekernels.runtime.backend import HostAllocation
from safekernels.runtime.buffer import DeviceBuffer, ForeignAllocation
from safekernels.runtime.device import Device, Stream

TARGET = "safekernels_launch"
#: the platforms the handler is registered for, as XLA names them
PLATFORMS = ("cpu", "CUDA")


@dataclass(frozen=True)
class TensorSlot:
    """One tensor parameter: where its buffer is in the frame (`args` or `rets`, and the index there)."""

    name: str
    source: str  # "arg" | "ret"
    index: int
    shape: tuple[int, ...]
    dtype: DType
    zero_fill: bool  # a SIMT output: threads may skip elements, atomics accumulate (XLA's memory is garbage)
    count: int  # elements (the product of `shape`, computed once at trace time)


@dataclass(frozen=True)
class FfiCallPlan:
    """What one traced call launches (see the module docstring)."""

    launcher: OpLauncher
    tensors: tuple[TensorSlot, ...]
    static: tuple[tuple[str, Any], ...]  # scalars known at trace time, by parameter name
    #: (name, operand index, numpy dtype) of the scalars passed as 0-d arrays
    traced: tuple[tuple[str, int, np.dtype[Any]], ...]
    n_args: int
    n_rets: int


INDEX_BITS = 24  # the low bits of `call`: the plan's index; the 39 bits above: the process's token


class _PlanTable:
    """The process-wide plans, by index; equal plans share one index, so re-tracing adds nothing."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.plans: list[FfiCallPlan] = []
        self._index: dict[Hashable, int] = {}
        self.token = secrets.randbits(63 - INDEX_BITS)

    def add(self, key: Hashable, make: Callable[[], FfiCallPlan]) -> int:
        """The `call` attribute of the plan for `key` (made on first use)."""
        with self._lock:
            found = self._index.get(key)
            if found is None:
                if len(self.plans) >= 1 << INDEX_BITS:
                    raise RuntimeError(f"{TARGET}: more than {1 << INDEX_BITS} distinct call signatures traced")
                found = self._index[key] = len(self.plans)
                self.plans.append(make())
            return self.token << INDEX_BITS | found

    def lookup(self, call: int | None) -> FfiCallPlan:
        """The plan a `call` attribute names; raises when it was not made by this process."""
        if call is None or call >> INDEX_BITS != self.token:
            raise LookupError(
                "the call names no plan of this process: it was traced by another process (an executable from a "
                "persistent compilation cache or jax.export); trace it again here"
            )
        return self.plans[call & ((1 << INDEX_BITS) - 1)]


PLANS = _PlanTable()


class _Handler:
    """The C-callable handler of one platform (see the module docstring)."""

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.on_gpu = platform.lower() != "cpu"
        self._apis: dict[int, xla_ffi.ApiCalls] = {}
        self._streams: dict[tuple[int | None, int], Stream] = {}  # (XLA's device ordinal, CUstream) -> Stream
        self.trampoline = xla_ffi.HANDLER(self._entry)

    @property
    def address(self) -> int:
        return int(ctypes.cast(self.trampoline, ctypes.c_void_p).value or 0)

    def _api(self, address: int) -> xla_ffi.ApiCalls:
        api = self._apis.get(address)
        if api is None:
            api = self._apis[address] = xla_ffi.ApiCalls(address)
        return api

    def _entry(self, frame_address: int) -> int | None:
        frame: Any = None
        try:
            frame = xla_ffi.CallFrame.from_address(frame_address)
            if not frame.api:  # no API table: nothing to read or to report through
                return None
            api = self._api(frame.api)
            if frame.struct_size < xla_ffi.CALL_FRAME_SIZE:
                message = f"XLA_FFI_CallFrame is {frame.struct_size} bytes, expected {xla_ffi.CALL_FRAME_SIZE}"
                return api.error(f"{TARGET}: {message} (this XLA is older than the FFI API 0.4)")
            ext = frame.extension_start
            if ext and ext.contents.type == xla_ffi.EXTENSION_METADATA:  # "which API version are you?"
                problem = xla_ffi.answer_metadata(ctypes.cast(ext, ctypes.c_void_p).value)
                return api.error(f"{TARGET}: {problem}") if problem else None
            if frame.stage != xla_ffi.STAGE_EXECUTE:
                return None
            self._execute(frame, api)
            return None
        except BaseException as exc:  # every failure must become an XLA error, never "success"
            return self._report(frame, exc)

    def _report(self, frame: Any, exc: BaseException) -> int | None:
        try:
            if frame is None or not frame.api:
                return None
            where = ""
            call = xla_ffi.attribute_i64(frame, b"call")
            if call is not None and call >> INDEX_BITS == PLANS.token:
                where = f" ({PLANS.lookup(call).launcher.name})"
            return self._api(frame.api).error(f"{TARGET}{where}: {type(exc).__name__}: {exc}")
        except BaseException:  # no API table to report through: XLA sees a null error
            return None

    def _execute(self, frame: Any, api: xla_ffi.ApiCalls) -> None:
        plan = PLANS.lookup(xla_ffi.attribute_i64(frame, b"call"))
        args, rets = frame.args, frame.rets
        if args.size != plan.n_args or rets.size != plan.n_rets:
            raise ValueError(
                f"the call has {args.size} operands and {rets.size} results, its plan {plan.n_args} and {plan.n_rets}"
            )
        addresses = {
            "arg": xla_ffi.buffer_addresses(args.types, args.args, args.size),
            "ret": xla_ffi.buffer_addresses(rets.types, rets.rets, rets.size),
        }
        stream = self._stream(frame.ctx, api) if self.on_gpu else Device.cpu().default_stream
        device = stream.device
        named: dict[str, Any] = dict(plan.static)
        for name, operand, dtype in plan.traced:
            named[name] = self._read_scalar(addresses["arg"][operand], dtype, stream)
        for slot in plan.tensors:
            named[slot.name] = (self._buffer(addresses[slot.source][slot.index], slot, stream), slot.shape)
        plan.launcher.launch(named, device, stream)

    def _stream(self, ctx: int, api: xla_ffi.ApiCalls) -> Stream:
        """XLA's stream for this call, as a safekernels Stream on the device XLA runs it on."""
        ordinal = api.device_ordinal(ctx)
        raw = api.stream(ctx)
        stream = self._streams.get((ordinal, raw))
        if stream is None:
            device = Device(ordinal if ordinal is not None else 0)
            stream = self._streams[(ordinal, raw)] = Stream(device, device.backend.wrap_stream(raw))  # type: ignore[attr-defined]
        return stream

    @staticmethod
    def _buffer(address: int, slot: TensorSlot, stream: Stream) -> DeviceBuffer[Any]:
        """A buffer over XLA's memory at `address` (zero-filled first when the slot asks, in stream order)."""
        device = stream.device
        count = slot.count
        nbytes = count * slot.dtype.itemsize
        if device.is_gpu:
            if slot.zero_fill and nbytes:
                device.backend.memset_zero(address, nbytes, stream.handle)
            allocation = ForeignAllocation(address, nbytes, None, read_only=slot.source == "arg")
            return DeviceBuffer(device, allocation, slot.dtype, 0, count)
        raw = (ctypes.c_uint8 * nbytes).from_address(address) if nbytes else (ctypes.c_uint8 * 0)()
        data = np.ctypeslib.as_array(raw)
        if slot.zero_fill:
            data[:] = 0
        return DeviceBuffer(device, HostAllocation(nbytes, wrap=data.view(slot.dtype.storage)), slot.dtype, 0, count)

    @staticmethod
    def _read_scalar(address: int, dtype: np.dtype[Any], stream: Stream) -> Any:
        """A traced scalar's value: read in place on the CPU; on a GPU copied back, after a synchronize."""
        host = np.empty((), dtype=dtype)
        if stream.device.is_gpu:
            stream.device.backend.copy_to_host(host.reshape(1), address, stream.handle)
            stream.synchronize()
        else:
            ctypes.memmove(host.ctypes.data, address, host.nbytes)
        return host.item()


_REGISTERED: dict[str, _Handler] = {}
_REGISTER_LOCK = threading.Lock()


def ffi_module() -> Any:
    """JAX's FFI module (`jax.ffi`, or `jax.extend.ffi` before it moved), or None when this JAX has none."""
    import jax

    module = getattr(jax, "ffi", None)
    if module is None:
        try:
            from jax.extend import ffi as module  # type: ignore[no-redef]
        except ImportError:
            return None
    needed = ("ffi_call", "register_ffi_target")
    return module if all(hasattr(module, name) for name in needed) else None


def _capsule(address: int) -> Any:
    """A PyCapsule holding `address`, as `register_ffi_target` takes it.

    Made through a private prototype of `PyCapsule_New`: `jax.ffi.pycapsule` sets `argtypes` on the shared
    `ctypes.pythonapi.PyCapsule_New`, which would change that function for every other user in the process
    (safekernels' own DLPack export among them)."""
    new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)(
        ("PyCapsule_New", ctypes.pythonapi)
    )
    return new(address, None, None)


def register() -> bool:
    """Register the handler with JAX for every platform in `PLATFORMS` (once per process); False when this
    JAX or Python cannot (no FFI module, no `ctypes.pythonapi` to make a capsule)."""
    with _REGISTER_LOCK:
        if _REGISTERED:
            return True
        ffi = ffi_module()
        if ffi is None or not hasattr(ctypes, "pythonapi"):
            return False
        for platform in PLATFORMS:
            handler = _Handler(platform)
            ffi.register_ffi_target(TARGET, _capsule(handler.address), platform=platform, api_version=1)
            _REGISTERED[platform] = handler  # the trampoline must outlive every executable that calls it
        return True


def plan_call(
    key: Hashable,
    launcher: OpLauncher,
    tensors: tuple[TensorSlot, ...],
    static: Mapping[str, Any],
    traced: tuple[tuple[str, int, np.dtype[Any]], ...],
    n_args: int,
    n_rets: int,
) -> int:
    """The `call` attribute naming this call's plan (made on first use of `key`)."""
    return PLANS.add(key, lambda: FfiCallPlan(launcher, tensors, tuple(static.items()), traced, n_args, n_rets))
