"""`DeviceGraph`: a `DeviceOp` chain captured once and replayed many times (`op.graph_on(stream)`).

Launching from Python costs microseconds per kernel; a CUDA graph replays a whole chain with one
`cuGraphLaunch`.  `graph_on` consumes the op like `sync_on` does and executes its chain once *in capture*:

    op.graph_on(stream) ──▶ DeviceGraph        (nothing has run on the GPU yet)
        │  constructors (tile.zeros/ones/from_numpy, to_device in a callback): allocate and fill now, once
        │  kernel launches, device copies: recorded into the graph (GPU: CUDA stream capture; CPU: a list)
        ▼
    graph.replay(stream)                       enqueue the recorded work (async; `stream.synchronize()` waits)
    graph.value                                the chain's value: the same tensors/buffers at every replay,
                                               rewritten in place by each replay

`runtime.capture` decides what may run inside a capture and raises `GraphCaptureError` for what cannot
(host reads, host waits after captured work, host copies into memory that captured work may use), so a
graph never silently differs from running the chain.  The graph keeps alive everything its recorded work
touches: the consumed op (whose closures hold the launch arguments) and every allocation made during the
capture.  The graph owns its value: moving a tensor out of `graph.value` (partition, unpartition, a launch)
makes later replays raise `UseAfterMoveError`; reading it (`to_numpy`) is fine.

On the GPU the chain is captured on a private stream (so other work on `stream` cannot leak into the graph,
and the legacy default stream works too); `stream` is the graph's home stream for `replay()`.  On the CPU
executor replay re-runs the recorded launches in order: the same semantics, so graph tests run without a GPU.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from safekernels.runtime import capture
from safekernels.runtime.capture import GraphCaptureError
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.ownership import Movable

T = TypeVar("T")

__all__ = ["DeviceGraph", "GraphCaptureError", "capture_graph"]


def _owned_parts(value: Any) -> list[Movable]:
    """The movable handles (tile tensors, partitions) in a value, looking into nested tuples and lists."""
    found: list[Movable] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple | list):
            stack.extend(item)
        elif isinstance(item, Movable):
            found.append(item)
    return found


class DeviceGraph(Generic[T]):
    """A captured chain: `replay(stream=None)` enqueues it again; `value` is what it (re)writes."""

    def __init__(
        self,
        *,
        label: str,
        stream: Stream,
        value: T,
        keep: Iterable[Any],
        cuda_graph: Any = None,
        recorded: tuple[Callable[[], object], ...] = (),
    ) -> None:
        self.label = label
        self.device: Device = stream.device
        self.stream = stream  # the home stream of `replay()`
        self._value = value
        self._owned = _owned_parts(value)
        self._keep = tuple(keep)  # the consumed op and the capture's allocations: what replays touch
        self._cuda = cuda_graph  # runtime.cuda_backend.CudaGraphExec on a GPU
        self._recorded = recorded  # CPU executor: the recorded launches and copies, in order
        if cuda_graph is not None:
            from safekernels.runtime.cuda_backend import _driver

            self._launch = cuda_graph.launch
            self._exec = cuda_graph.graph_exec
            self._success = _driver().CUresult.CUDA_SUCCESS

    @property
    def value(self) -> T:
        """The chain's value; every replay rewrites its tensors/buffers in place (read it after a sync)."""
        return self._value

    @property
    def node_count(self) -> int:
        """How many operations one replay runs (CUDA graph nodes; CPU: recorded launches and copies)."""
        return int(self._cuda.node_count) if self._cuda is not None else len(self._recorded)

    def replay(self, stream: Stream | None = None) -> None:
        """Enqueue the captured work on `stream` (default: the stream given to `graph_on`); does not wait."""
        target = self.stream if stream is None else stream
        if not isinstance(target, Stream):
            raise TypeError(f"DeviceGraph.replay takes a safekernels Stream, got {type(target).__name__}")
        if target.device is not self.device:
            raise ValueError(f"graph of {self.label} was captured on {self.device!r}, stream is on {target.device!r}")
        if capture.active() is not None:
            raise GraphCaptureError("graph_on: replaying a DeviceGraph inside a captured chain is not supported")
        for part in self._owned:
            part._check_alive("replay")
        if self._cuda is None:
            for run in self._recorded:
                run()
            return
        handle = target.handle
        backend: Any = self.device.backend
        previous = backend.enter()  # several GPUs: the graph belongs to its device's context
        try:
            result = self._launch(self._exec, 0 if handle is None else handle.handle)
        finally:
            backend.leave(previous)
        if result[0] is not self._success:
            from safekernels.runtime.cuda_backend import check

            check(result, "cuGraphLaunch", f"graph of {self.label}")
        if handle is None:
            self.device.backend.default_last_kernel = f"graph of {self.label}"  # type: ignore[attr-defined]
        else:
            handle.last_kernel = f"graph of {self.label}"

    def __repr__(self) -> str:
        return f"<DeviceGraph {self.label} ({self.node_count} ops) on {self.device!r}>"


def capture_graph(execute: Callable[[Stream], T], stream: Stream, *, label: str, keep: Any) -> DeviceGraph[T]:
    """Run `execute` (a consumed op's chain) in capture mode on `stream`'s device; see the module docstring."""
    if not isinstance(stream, Stream):
        raise TypeError(f"graph_on takes a safekernels Stream, got {type(stream).__name__}")
    device = stream.device
    if device.is_cpu:
        cap = capture.Capture()
        capture.begin(cap)
        try:
            value = execute(stream)
        finally:
            capture.end()
        return DeviceGraph(
            label=label, stream=stream, value=value, keep=(keep, *cap.allocations), recorded=tuple(cap.recorded)
        )
    from safekernels.runtime import cuda_backend as cb

    backend = device.backend
    assert isinstance(backend, cb.CudaBackend)
    capture_stream = backend.new_stream(non_blocking=True)
    backend._filler()  # made before capturing: constructors fill on it meanwhile
    cap = capture.Capture(lambda: cb.captured_node_count(capture_stream))
    cap.stream = capture_stream
    capture.begin(cap)
    try:
        cb.begin_capture(capture_stream)
    except BaseException:
        capture.end()
        raise
    try:
        value = execute(Stream(device, capture_stream))
    except BaseException:
        capture.end()
        cb.abandon_capture(capture_stream)
        raise
    capture.end()
    graph = cb.CudaGraphExec(cb.end_capture(capture_stream))
    return DeviceGraph(label=label, stream=stream, value=value, keep=(keep, *cap.allocations), cuda_graph=graph)
