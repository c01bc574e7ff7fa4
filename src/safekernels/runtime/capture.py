"""What may happen while a `DeviceOp` chain is being captured into a graph (`op.graph_on(stream)`), and where.

A capture executes the chain once with a recording in place of execution: GPU work goes into the graph
(CUDA stream capture; on the CPU executor, a list of recorded launches), so nothing the chain computes
exists until the first replay.  Host-side work is done once, now, and is not part of the graph.  That split is
only sound for some operations, and this module is the one place that decides (both backends and the CPU
launch seams call it; it imports nothing of the package, so `runtime.backend` can use it):

    allocation                     now, once; the graph keeps the memory alive (replays write into it)
    host -> device copy, zero fill now, once, when the target is memory this capture allocated and no GPU work
                                   was captured since (a constructor filling its fresh tensor); a zero fill of
                                   other memory is captured instead; a host copy into other memory raises
    device -> device copy, launch  captured (replayed, in order)
    device -> host copy            raises: the captured kernels have not run, the host would read stale data
    host synchronize               a no-op while nothing was captured since the last fill above (a
                                   constructor's own wait), else raises: nothing the host could wait for exists

The rule for fills is what makes constructors (`tile.zeros/ones/from_numpy`, `to_device` in a `then`
callback) work inside a captured chain without silently writing data "before" GPU work that the chain
ordered before them.
"""

from __future__ import annotations

import copy
import functools
import threading
from collections.abc import Callable
from typing import Any

from safekernels.errors import DeviceError
from safekernels.runtime.ownership import Movable


class GraphCaptureError(DeviceError):
    """An operation inside `DeviceOp.graph_on` that a replayable graph cannot contain."""


_state = threading.local()


class Capture:
    """The recording of one `graph_on` in progress on this thread.

    `count_nodes` returns how much GPU work has been captured so far (the CUDA graph's node count, or the
    CPU recording's length); `fills_ok_at` is that count at the last host-side fill (a later host
    synchronize is harmless only while nothing new was captured).
    """

    def __init__(self, count_nodes: Callable[[], int] | None = None) -> None:
        self.recorded: list[Callable[[], object]] = []  # CPU executor: the launches and copies, in order
        self.allocations: list[Any] = []  # every allocation made during the capture (kept alive by the graph)
        self._fresh: list[tuple[int, int, int]] = []  # (start, end, node count when allocated)
        self._count_nodes = count_nodes if count_nodes is not None else self._count_recorded
        self.fills_ok_at = 0
        self.stream: Any = None  # GPU: the backend handle of the stream being captured

    def _count_recorded(self) -> int:
        return len(self.recorded)

    def nodes(self) -> int:
        return self._count_nodes()

    # -- the rules ------------------------------------------------------------------------------------------
    def allocated(self, allocation: Any) -> None:
        self.allocations.append(allocation)
        if allocation.nbytes:
            start = int(allocation.ptr)
            self._fresh.append((start, start + int(allocation.nbytes), self.nodes()))

    def fill_now(self, ptr: int, nbytes: int) -> bool:
        """True when a host-side fill of `[ptr, ptr + nbytes)` may run now, outside the graph (see above)."""
        now = self.nodes()
        end = ptr + nbytes
        for start, stop, mark in reversed(self._fresh):
            if start <= ptr and end <= stop:
                if mark == now:
                    self.fills_ok_at = now
                    return True
                return False
        return False

    def refuse_host_copy(self, nbytes: int) -> GraphCaptureError:
        return GraphCaptureError(
            f"graph_on: a host-to-device copy ({nbytes} bytes) into memory the captured chain did not just "
            "allocate cannot be captured (the host data would be read once, now, while the graph's GPU work "
            "runs at each replay); write inputs with copy_from_numpy before graph_on or between replays"
        )

    def refuse_host_read(self) -> GraphCaptureError:
        return GraphCaptureError(
            "graph_on: reading device memory on the host (to_numpy, a device-to-host copy) inside a captured "
            "chain cannot be captured: the captured kernels have not run yet; read `graph.value` after "
            "`graph.replay()` and `stream.synchronize()`"
        )

    def synchronize(self) -> None:
        """A host wait inside the chain: harmless right after a host-side fill, refused after GPU work."""
        if self.nodes() != self.fills_ok_at:
            raise GraphCaptureError(
                "graph_on: a host synchronization (stream.synchronize, sync_on, to_numpy) inside a captured "
                "chain cannot be captured: the GPU work before it has not run yet; synchronize after "
                "`graph.replay()` instead"
            )

    def record(self, thunk: Callable[[], object]) -> None:
        self.recorded.append(thunk)


def active() -> Capture | None:
    """The capture in progress on this thread, if any."""
    capture: Capture | None = getattr(_state, "capture", None)
    return capture


def begin(capture: Capture) -> None:
    if active() is not None:
        raise GraphCaptureError("graph_on: a capture is already in progress on this thread (nested graph_on)")
    _state.capture = capture


def end() -> None:
    _state.capture = None


def cpu_launch(fn: Callable[..., object], *args: Any) -> None:
    """The CPU executor's launch seam: run `fn(*args)` now, or record it when a capture is in progress."""
    capture = active()
    if capture is None:
        fn(*args)
        return
    capture.record(functools.partial(fn, *(_snapshot(a) for a in args)))


def _snapshot(arg: Any) -> Any:
    """The recording's own handles to the launch's tensors: the chain may move the values it passes on (a
    partition unpartitioned for the next launch), which must not reach the recorded launch (a GPU graph holds
    raw addresses, not handles)."""
    if isinstance(arg, list | tuple):
        return type(arg)(_snapshot(a) for a in arg)
    if isinstance(arg, Movable) and not arg.is_moved:
        return copy.copy(arg)
    return arg
