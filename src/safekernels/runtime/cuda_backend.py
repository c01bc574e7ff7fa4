"""The CUDA backend of `Device(n)`: the driver API through `cuda.bindings.driver`.

It retains the device's *primary* context (the one PyTorch, CuPy and the runtime API use), so pointers and
streams from those libraries work here unchanged.  Allocations are freed when their Python object is
collected;
errors from a finalizer are swallowed because after a kernel fault the context is gone and the process must
still exit cleanly.  Every other driver error becomes `DeviceError` (a trap or illegal access during a kernel:
`KernelTrapError`, naming the kernel last launched on the failing stream).

Several devices in one process (docs/devices.md).  The driver runs a launch, a default-stream copy and a
device synchronize in the *current* context of the calling thread, and a kernel launched into a stream of
another device fails.  As long as the process uses one GPU there is one primary context and nothing to switch
(the launch fast paths skip the question entirely).  From the moment a second `CudaBackend` exists,
`SWITCHING` is non-empty and every such driver call is bracketed like torch's device guard:

    previous = backend.enter()      # cuCtxGetCurrent; cuCtxSetCurrent(ours) only if another one is current
    ... the driver call ...
    backend.leave(previous)         # puts the caller's context back (None: nothing was switched)

so the device of the buffer, stream or prepared launch decides where work runs, and the current device that
torch or CuPy code around the call sees is never changed behind its back.  A copy between two GPUs
(`copy_peer`) first enables peer access from the copying device to the other one where the hardware allows it
(`cuDeviceCanAccessPeer`), once per pair, and keeps the source memory alive until the copy has run.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import numpy.typing as npt

from safekernels.errors import DeviceError, KernelTrapError
from safekernels.runtime import capture
from safekernels.runtime.limits import DeviceLimits

#: Errors that mean "a kernel died": trap / illegal instruction / illegal address / misaligned / assert /
# launch
#: failure.  They are sticky: the context cannot be used afterwards.
_KERNEL_FAULTS = {
    "CUDA_ERROR_LAUNCH_FAILED",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_MISALIGNED_ADDRESS",
    "CUDA_ERROR_ASSERT",
    "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "CUDA_ERROR_INVALID_PC",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE",
}


_DRIVER: list[Any] = []  # the imported `cuda.bindings.driver` (every launch and wait asks for it)
#: non-empty once contexts of two or more GPUs exist in this process: driver calls that act on the current
#: context switch to their device's and back (the fast launch paths read it: empty -> one context, no switch)
SWITCHING: list[bool] = []
#: ordinal -> the backend of each GPU this process has opened
_BACKENDS: dict[int, CudaBackend] = {}


def _driver() -> Any:
    if not _DRIVER:
        from cuda.bindings import driver

        _DRIVER.append(driver)
    return _DRIVER[0]


def error_name(err: Any) -> str:
    return getattr(err, "name", str(err))


def check(result: Any, what: str, kernel: str | None = None) -> Any:
    """Unpack a cuda.bindings result tuple, raising DeviceError (or KernelTrapError) on failure."""
    driver = _driver()
    if type(result) is tuple and len(result) == 1:  # the common `(err,)` of calls that return nothing
        err, rest = result[0], []
    else:
        err, *rest = result if isinstance(result, tuple) else (result,)
    if err != driver.CUresult.CUDA_SUCCESS:
        name = error_name(err)
        where = f"kernel `{kernel}`: " if kernel else ""
        if name in _KERNEL_FAULTS:
            from safekernels.simt.device_assert import failed_assertion

            located = failed_assertion(kernel)  # a kernel `assert` that recorded which one failed
            if located is not None:
                raise located
            raise KernelTrapError(
                f"{where}the GPU reported {name} during {what} (a bounds-check trap or invalid memory "
                "access; the CUDA context is unusable now, restart the process to use the GPU again)"
            )
        raise DeviceError(f"{where}{what} failed: {name}")
    if not rest:
        return None
    return rest[0] if len(rest) == 1 else tuple(rest)


# The finalizers below release a handle through the driver object that created it, captured at creation: a handle
# belongs to one driver, and the one `_driver()` answers at collection time may be another (a test's fake driver
# swapped in or out); handing a fake handle to the real `cuStreamDestroy` is a segmentation fault, not an error.


def _free(driver: Any, ptr: int) -> None:
    try:
        driver.cuMemFree(ptr)
    except Exception:
        pass


class CudaAllocation:
    """`nbytes` of device memory from `cuMemAlloc`, freed when collected."""

    __slots__ = ("__weakref__", "_nbytes", "_ptr")

    def __init__(self, nbytes: int) -> None:
        self._nbytes = nbytes
        self._ptr = 0
        if nbytes:
            driver = _driver()
            self._ptr = int(check(driver.cuMemAlloc(nbytes), f"cuMemAlloc({nbytes})"))
            weakref.finalize(self, _free, driver, self._ptr)

    @property
    def ptr(self) -> int:
        return self._ptr

    @property
    def nbytes(self) -> int:
        return self._nbytes


def _destroy_stream(driver: Any, handle: Any) -> None:
    try:
        driver.cuStreamDestroy(handle)
    except Exception:
        pass


class CudaStream:
    """A stream handle: ours (destroyed when collected) or a foreign one (torch/CuPy; never destroyed)."""

    __slots__ = ("__weakref__", "handle", "last_kernel", "owned")

    def __init__(self, handle: Any, owned: bool) -> None:
        self.handle = handle
        self.owned = owned
        self.last_kernel: str | None = None
        if owned:
            weakref.finalize(self, _destroy_stream, _driver(), handle)

    def __int__(self) -> int:
        return int(self.handle)

    def __repr__(self) -> str:
        return f"CudaStream(0x{int(self.handle):x}{'' if self.owned else ', foreign'})"


class CudaBackend:
    """Backend of `Device(ordinal)` (see `runtime.backend.Backend`)."""

    name = "cuda"

    def __init__(self, ordinal: int) -> None:
        driver = _driver()
        check(driver.cuInit(0), "cuInit")
        count = check(driver.cuDeviceGetCount(), "cuDeviceGetCount")
        if ordinal >= count:
            raise DeviceError(f"Device({ordinal}) does not exist ({count} CUDA device(s) present)")
        self.ordinal = ordinal
        self.device = check(driver.cuDeviceGet(ordinal), "cuDeviceGet")
        self.context = check(driver.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain")
        self._context_id = int(self.context)
        self.default_last_kernel: str | None = None
        self._fill_stream: CudaStream | None = None  # host-side fills during a graph capture
        self._peers: dict[int, bool] = {}  # peer ordinal -> whether this device may access its memory directly
        self._in_flight: list[tuple[Any, Any]] = []  # (event, object kept alive until the event completes)
        if _BACKENDS and ordinal not in _BACKENDS:
            SWITCHING.append(True)
        if not SWITCHING:
            self.make_current()  # the first GPU of the process: its context stays current, as before
        _BACKENDS[ordinal] = self

    def make_current(self) -> None:
        check(_driver().cuCtxSetCurrent(self.context), "cuCtxSetCurrent")

    # -- the current-context discipline (see the module doc) --------------------------------------------------
    def enter(self) -> Any:
        """Make this device's context current for the calls that follow; returns what `leave` restores
        (None: nothing to restore, because one GPU is in use or this context was current already)."""
        if not SWITCHING:
            return None
        driver = _driver()
        current = check(driver.cuCtxGetCurrent(), "cuCtxGetCurrent")
        if current is not None and int(current) == self._context_id:
            return None
        check(driver.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        return current if current is not None else _NO_CONTEXT

    def leave(self, previous: Any) -> None:
        """Restore the context `enter` found current (a no-op for None)."""
        if previous is None:
            return
        check(_driver().cuCtxSetCurrent(None if previous is _NO_CONTEXT else previous), "cuCtxSetCurrent")

    def enter_always(self) -> Any:
        """`enter`, but with one GPU too: make its context current on this thread (a new thread has none)."""
        if SWITCHING:
            return self.enter()
        self.make_current()
        return None

    @staticmethod
    def raw_stream(stream: Any) -> Any:
        return 0 if stream is None else stream.handle

    def _last(self, stream: Any) -> str | None:
        return self.default_last_kernel if stream is None else getattr(stream, "last_kernel", None)

    # -- Backend protocol -----------------------------------------------------------------------------------
    def allocate(self, nbytes: int) -> CudaAllocation:
        previous = self.enter_always()
        try:
            allocation = CudaAllocation(nbytes)
        finally:
            self.leave(previous)
        if (cap := capture.active()) is not None:
            cap.allocated(allocation)
        return allocation

    def copy_from_host(self, dst_ptr: int, src: npt.NDArray[Any], stream: Any) -> None:
        host = np.ascontiguousarray(src)
        if (cap := capture.active()) is not None:
            if not cap.fill_now(dst_ptr, host.nbytes):
                raise cap.refuse_host_copy(host.nbytes)
            stream = self._filler()  # a constructor's data: written once, now, outside the graph
        previous = self.enter()
        try:
            check(
                _driver().cuMemcpyHtoDAsync(dst_ptr, host.ctypes.data, host.nbytes, self.raw_stream(stream)),
                "cuMemcpyHtoDAsync",
                self._last(stream),
            )
            # pageable source memory: wait so `host` may be freed as soon as we return
            self._wait(stream)
        finally:
            self.leave(previous)

    def copy_to_host(self, dst: npt.NDArray[Any], src_ptr: int, stream: Any) -> None:
        assert dst.flags.c_contiguous
        if (cap := capture.active()) is not None:
            raise cap.refuse_host_read()
        previous = self.enter()
        try:
            check(
                _driver().cuMemcpyDtoHAsync(dst.ctypes.data, src_ptr, dst.nbytes, self.raw_stream(stream)),
                "cuMemcpyDtoHAsync",
                self._last(stream),
            )
            self._wait(stream)
        finally:
            self.leave(previous)

    def copy_device(self, dst_ptr: int, src_ptr: int, nbytes: int, stream: Any) -> None:
        if (cap := capture.active()) is not None:
            _check_capture_stream(cap, stream, "a device-to-device copy")
        previous = self.enter()
        try:
            check(
                _driver().cuMemcpyDtoDAsync(dst_ptr, src_ptr, nbytes, self.raw_stream(stream)),
                "cuMemcpyDtoDAsync",
                self._last(stream),
            )
        finally:
            self.leave(previous)

    def memset_zero(self, ptr: int, nbytes: int, stream: Any) -> None:
        if (cap := capture.active()) is not None:
            if cap.fill_now(ptr, nbytes):
                stream = self._filler()  # a constructor's zeros: written once, now, outside the graph
                check(_driver().cuMemsetD8Async(ptr, 0, nbytes, stream.handle), "cuMemsetD8Async")
                self._wait(stream)
                return
            _check_capture_stream(cap, stream, "a zero fill")  # captured: replays zero the memory again
        previous = self.enter()
        try:
            check(
                _driver().cuMemsetD8Async(ptr, 0, nbytes, self.raw_stream(stream)),
                "cuMemsetD8Async",
                self._last(stream),
            )
        finally:
            self.leave(previous)

    def _filler(self) -> CudaStream:
        """A non-blocking stream of our own for host-side fills while a stream is being captured."""
        if self._fill_stream is None:
            self._fill_stream = self.new_stream(non_blocking=True)
        return self._fill_stream

    def _wait(self, stream: Any) -> None:
        """Synchronize `stream`, also while capturing (the fill stream is never the captured one)."""
        driver = _driver()
        if stream is None:
            check(driver.cuCtxSynchronize(), "synchronize", self.default_last_kernel)
        else:
            check(driver.cuStreamSynchronize(stream.handle), "stream synchronize", stream.last_kernel)

    def new_stream(self, *, non_blocking: bool = False) -> CudaStream:
        previous = self.enter_always()
        try:
            driver = _driver()
            kinds = driver.CUstream_flags
            flags = kinds.CU_STREAM_NON_BLOCKING if non_blocking else kinds.CU_STREAM_DEFAULT
            handle = check(driver.cuStreamCreate(flags), "cuStreamCreate")
        finally:
            self.leave(previous)
        return CudaStream(handle, owned=True)

    def wrap_stream(self, raw: int) -> CudaStream:
        """A foreign `CUstream` (torch `cuda_stream`, CuPy `ptr`) as a stream handle of this backend."""
        return CudaStream(_driver().CUstream(int(raw)), owned=False)

    def synchronize(self, stream: Any) -> None:
        if (cap := capture.active()) is not None:
            cap.synchronize()  # a host wait inside a captured chain: nothing to wait for, or refused
            return
        if self._in_flight:
            self._reap()
        if stream is None:  # the whole device: cuCtxSynchronize acts on the current context
            previous = self.enter()
            try:
                self._wait(stream)
            finally:
                self.leave(previous)
            return
        # every eager `sync_on` ends here: `_wait`'s stream branch, inlined
        check(_driver().cuStreamSynchronize(stream.handle), "stream synchronize", stream.last_kernel)

    # -- beyond the protocol --------------------------------------------------------------------------------
    def attribute(self, attr: str) -> int:
        driver = _driver()
        value = getattr(driver.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{attr}")
        return int(check(driver.cuDeviceGetAttribute(value, self.device), f"cuDeviceGetAttribute({attr})"))

    def limits(self) -> DeviceLimits:
        driver = _driver()
        raw_name = check(driver.cuDeviceGetName(256, self.device), "cuDeviceGetName")
        name = bytes(raw_name).split(b"\0", 1)[0].decode(errors="replace")
        a = self.attribute
        return DeviceLimits(
            name=name,
            compute_capability=(a("COMPUTE_CAPABILITY_MAJOR"), a("COMPUTE_CAPABILITY_MINOR")),
            max_grid_dim=(a("MAX_GRID_DIM_X"), a("MAX_GRID_DIM_Y"), a("MAX_GRID_DIM_Z")),
            max_block_dim=(a("MAX_BLOCK_DIM_X"), a("MAX_BLOCK_DIM_Y"), a("MAX_BLOCK_DIM_Z")),
            max_threads_per_block=a("MAX_THREADS_PER_BLOCK"),
            max_shared_memory_per_block=a("MAX_SHARED_MEMORY_PER_BLOCK"),
            max_shared_memory_per_block_optin=a("MAX_SHARED_MEMORY_PER_BLOCK_OPTIN"),
            warp_size=a("WARP_SIZE"),
            multiprocessor_count=a("MULTIPROCESSOR_COUNT"),
            total_memory=int(check(driver.cuDeviceTotalMem(self.device), "cuDeviceTotalMem")),
        )

    def load_module(self, image: bytes) -> Any:
        previous = self.enter_always()
        try:
            return check(_driver().cuModuleLoadData(image), "cuModuleLoadData")
        finally:
            self.leave(previous)

    def get_function(self, module: Any, name: str) -> Any:
        return check(_driver().cuModuleGetFunction(module, name.encode()), f"cuModuleGetFunction({name})")

    def function_attribute(self, function: Any, attr: str) -> int:
        driver = _driver()
        value = getattr(driver.CUfunction_attribute, f"CU_FUNC_ATTRIBUTE_{attr}")
        return int(check(driver.cuFuncGetAttribute(value, function), f"cuFuncGetAttribute({attr})"))

    def pointer_device_ordinal(self, ptr: int) -> int:
        driver = _driver()
        attr = driver.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        return int(check(driver.cuPointerGetAttribute(attr, ptr), "cuPointerGetAttribute"))

    # -- several GPUs --------------------------------------------------------------------------------------------
    def can_access_peer(self, peer: CudaBackend) -> bool:
        """Whether kernels and copy engines of this device can reach `peer`'s memory directly (NVLink / PCIe
        P2P); peer access is enabled the first time it is asked for a pair where the answer is yes."""
        known = self._peers.get(peer.ordinal)
        if known is not None:
            return known
        driver = _driver()
        able = bool(check(driver.cuDeviceCanAccessPeer(self.device, peer.device), "cuDeviceCanAccessPeer"))
        if able:
            previous = self.enter_always()
            try:
                (err,) = driver.cuCtxEnablePeerAccess(peer.context, 0)
            finally:
                self.leave(previous)
            # enabled already (by torch, CuPy or an earlier run of this code in the same context): fine
            if err != driver.CUresult.CUDA_SUCCESS and error_name(err) != "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED":
                check((err,), f"cuCtxEnablePeerAccess(Device({self.ordinal}) -> Device({peer.ordinal}))")
        self._peers[peer.ordinal] = able
        return able

    def copy_peer(
        self, dst_ptr: int, src: CudaBackend, src_ptr: int, nbytes: int, stream: Any, keep_alive: Any
    ) -> None:
        """Copy `nbytes` from `src_ptr` on GPU `src` to `dst_ptr` on this GPU, queued on `stream` (this
        device's; None: its default stream).  Direct when peer access is possible, staged by the driver
        otherwise.  `keep_alive` (the source allocation) lives until the copy has run."""
        if (cap := capture.active()) is not None:
            _check_capture_stream(cap, stream, "a copy between devices")
        self.can_access_peer(src)
        driver = _driver()
        previous = self.enter_always()
        try:
            check(
                driver.cuMemcpyPeerAsync(dst_ptr, self.context, src_ptr, src.context, nbytes, self.raw_stream(stream)),
                f"cuMemcpyPeerAsync(Device({src.ordinal}) -> Device({self.ordinal}))",
                self._last(stream),
            )
            self.keep_until_done(stream, keep_alive)
        finally:
            self.leave(previous)

    def wait_for(self, stream: Any, other: CudaBackend, other_stream: Any) -> None:
        """Order `stream` (this device's) after the work queued so far on `other_stream` (`other`'s), without
        blocking the host: an event recorded there, waited on here."""
        driver = _driver()
        previous = other.enter_always()
        try:
            event = check(driver.cuEventCreate(driver.CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate")
            check(driver.cuEventRecord(event, other.raw_stream(other_stream)), "cuEventRecord")
        finally:
            other.leave(previous)
        previous = self.enter_always()
        try:
            check(driver.cuStreamWaitEvent(self.raw_stream(stream), event, 0), "cuStreamWaitEvent")
        finally:
            self.leave(previous)
        check(driver.cuEventDestroy(event), "cuEventDestroy")  # destroyed once the wait has happened

    def keep_until_done(self, stream: Any, obj: Any) -> None:
        """Hold `obj` (memory an asynchronous copy reads) until the work queued on `stream` so far has run."""
        driver = _driver()
        event = check(driver.cuEventCreate(driver.CUevent_flags.CU_EVENT_DISABLE_TIMING), "cuEventCreate")
        check(driver.cuEventRecord(event, self.raw_stream(stream)), "cuEventRecord")
        self._in_flight.append((event, obj))
        self._reap()

    def _reap(self) -> None:
        """Drop what `keep_until_done` holds for work that has finished."""
        driver = _driver()
        held, self._in_flight = self._in_flight, []
        for k, (event, obj) in enumerate(held):
            (err,) = driver.cuEventQuery(event)
            if err == driver.CUresult.CUDA_SUCCESS:
                driver.cuEventDestroy(event)
            elif error_name(err) == "CUDA_ERROR_NOT_READY":
                self._in_flight.append((event, obj))
            else:  # a fault: keep holding everything not yet known to be done, and report it
                self._in_flight += held[k:]
                check((err,), "cuEventQuery")


#: `enter` found no context current on this thread: `leave` unbinds ours again
_NO_CONTEXT: Any = object()


# -- CUDA graphs (`DeviceOp.graph_on`, see `runtime.graph`) ------------------------------------------------------


def _check_capture_stream(cap: Any, stream: Any, what: str) -> None:
    if stream is None or stream is not getattr(cap, "stream", None):
        raise capture.GraphCaptureError(
            f"graph_on: {what} on a stream other than the capturing one cannot be captured (it would run now, "
            "once, instead of at each replay)"
        )


def begin_capture(stream: CudaStream) -> None:
    """Start capturing `stream` (relaxed mode: the chain's constructors may allocate meanwhile)."""
    driver = _driver()
    mode = driver.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_RELAXED
    check(driver.cuStreamBeginCapture(stream.handle, mode), "cuStreamBeginCapture")


def captured_node_count(stream: CudaStream) -> int:
    """How many nodes the capture in progress on `stream` holds so far."""
    driver = _driver()
    info = check(driver.cuStreamGetCaptureInfo(stream.handle), "cuStreamGetCaptureInfo")
    graph = next((x for x in info if isinstance(x, driver.CUgraph)), None)
    if graph is None or not int(graph):
        return 0
    _nodes, count = check(driver.cuGraphGetNodes(graph, 0), "cuGraphGetNodes")
    return int(count)


def end_capture(stream: CudaStream) -> Any:
    """Stop capturing `stream`; the captured `CUgraph` (raises `GraphCaptureError` if it was invalidated)."""
    driver = _driver()
    err, graph = driver.cuStreamEndCapture(stream.handle)
    if err != driver.CUresult.CUDA_SUCCESS:
        if graph is not None and int(graph):
            driver.cuGraphDestroy(graph)
        raise capture.GraphCaptureError(
            f"graph_on: the driver refused the captured chain ({error_name(err)}): an operation in it cannot "
            "be captured into a CUDA graph"
        )
    return graph


def abandon_capture(stream: CudaStream) -> None:
    """End a capture that failed midway and drop what it recorded (errors ignored: we are raising already)."""
    try:
        driver = _driver()
        _err, graph = driver.cuStreamEndCapture(stream.handle)
        if graph is not None and int(graph):
            driver.cuGraphDestroy(graph)
    except Exception:
        pass


def _destroy_graph(driver: Any, graph: Any, graph_exec: Any) -> None:
    try:
        if graph_exec is not None:
            driver.cuGraphExecDestroy(graph_exec)
        driver.cuGraphDestroy(graph)
    except Exception:
        pass


class CudaGraphExec:
    """An instantiated CUDA graph (and the graph it came from), destroyed when collected."""

    __slots__ = ("__weakref__", "graph", "graph_exec", "launch", "node_count")

    def __init__(self, graph: Any) -> None:
        driver = _driver()
        try:
            self.graph_exec = check(driver.cuGraphInstantiate(graph, 0), "cuGraphInstantiate")
        except BaseException:
            _destroy_graph(driver, graph, None)
            raise
        self.graph = graph
        weakref.finalize(self, _destroy_graph, driver, graph, self.graph_exec)
        _nodes, count = check(driver.cuGraphGetNodes(graph, 0), "cuGraphGetNodes")
        self.node_count = int(count)
        self.launch = driver.cuGraphLaunch
