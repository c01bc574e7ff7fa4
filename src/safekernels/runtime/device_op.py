"""`DeviceOp[T]`: lazy GPU work that produces a `T` when synchronized (cutile-rs's `DeviceOp`).

Constructors and launches only *describe* work; nothing runs until `sync_on(stream)` (or `sync()`), which runs the
whole chain in order on that stream and synchronizes once.  Every combinator consumes its receiver (SPEC §4 "What
moves"), so a chain can only be executed once, and the values it returns are the only way back to the data:

    x ──then──▶ op ──zip──▶ op2 ──sync_on(stream)──▶ values

Execution is non-reentrant: calling `sync_on` from inside a running chain (for example inside a `then` callback)
raises instead of silently serializing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from safekernels.errors import DeviceError
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.ownership import Movable

T = TypeVar("T")
U = TypeVar("U")

_state = threading.local()


def _executing() -> bool:
    return bool(getattr(_state, "depth", 0))


class DeviceOp(Movable, Generic[T]):
    """A not-yet-executed computation on a stream.  Moved by `sync_on`, `sync`, `then`, `zip`, `first`, `shared`."""

    def __init__(self, run: Callable[[Stream], T], *, label: str = "DeviceOp", device: Device | None = None) -> None:
        self._run = run
        self.label = label
        self.device = device  # the device the op's data lives on, when known

    # -- execution --------------------------------------------------------------------------------------------
    def _execute(self, stream: Stream) -> T:
        """Run without moving (for combinators that already moved `self`)."""
        return self._run(stream)

    def sync_on(self, stream: Stream) -> T:
        """Run the chain on `stream`, wait for it, and hand back the value (consumes the op)."""
        if _executing():
            raise DeviceError(
                "DeviceOp execution is non-reentrant: sync_on/sync was called while another DeviceOp is "
                "executing (inside a `then` callback?); return a DeviceOp from the callback instead"
            )
        self._mark_moved("sync_on")
        _state.depth = 1
        try:
            value = self._run(stream)
        finally:
            _state.depth = 0
        stream.synchronize()
        return value

    def sync(self) -> T:
        """`sync_on` the default stream of the op's device (or of `Device.default()`)."""
        self._check_alive("sync")
        device = self.device if self.device is not None else Device.default()
        return self.sync_on(device.default_stream)

    # -- combinators ------------------------------------------------------------------------------------------
    def then(self, f: Callable[[T], DeviceOp[U] | U]) -> DeviceOp[U]:
        """Feed this op's value to `f` on the same stream; if `f` returns a DeviceOp it runs too."""
        self._mark_moved("then")
        parent = self

        def run(stream: Stream) -> U:
            result = f(parent._execute(stream))
            if isinstance(result, DeviceOp):
                result._mark_moved("then")
                return result._execute(stream)  # type: ignore[no-any-return]
            return result

        return DeviceOp(run, label=f"{self.label}.then", device=self.device)

    def zip(self, *others: DeviceOp[Any]) -> DeviceOp[tuple[Any, ...]]:
        """One op whose value is the tuple of this op's and `others`' values (consumes all of them)."""
        return zip_ops(self, *others)

    def first(self) -> DeviceOp[Any]:
        """The first element of a tuple-valued op (e.g. the output of a launch)."""
        self._mark_moved("first")
        parent = self

        def run(stream: Stream) -> Any:
            value = parent._execute(stream)
            return value[0]  # type: ignore[index]

        return DeviceOp(run, label=f"{self.label}.first", device=self.device)

    def shared(self) -> SharedDeviceOp[T]:
        """Execute at most once and share the (read-only) value between several consumers."""
        self._mark_moved("shared")
        return SharedDeviceOp(self)

    def __repr__(self) -> str:
        state = "moved" if self.is_moved else "pending"
        return f"<DeviceOp {self.label} ({state})>"


class SharedDeviceOp(DeviceOp[T]):
    """A `DeviceOp` that runs its source once; using it does not move it (its value is shared, read-only)."""

    def __init__(self, source: DeviceOp[T]) -> None:
        self._source = source
        self._done = False
        self._value: T | None = None
        super().__init__(self._run_once, label=f"{source.label}.shared", device=source.device)

    def _run_once(self, stream: Stream) -> T:
        if not self._done:
            self._value = self._source._execute(stream)
            self._done = True
        return self._value  # type: ignore[return-value]

    def _mark_moved(self, operation: str) -> None:
        self._check_alive(operation)  # shared values are never moved by their consumers

    def sync_on(self, stream: Stream) -> T:
        if _executing():
            raise DeviceError("DeviceOp execution is non-reentrant: sync_on called inside a running DeviceOp")
        value = self._run_once(stream)
        stream.synchronize()
        return value


def zip_ops(*ops: DeviceOp[Any]) -> DeviceOp[tuple[Any, ...]]:
    """`safekernels.zip(a, b, ...)`: the tuple of all values, run in argument order (consumes every op)."""
    if not ops:
        raise TypeError("zip needs at least one DeviceOp")
    for op in ops:
        if not isinstance(op, DeviceOp):
            raise TypeError(f"zip takes DeviceOps, got {type(op).__name__}")
        op._mark_moved("zip")
    device = next((op.device for op in ops if op.device is not None), None)

    def run(stream: Stream) -> tuple[Any, ...]:
        return tuple(op._execute(stream) for op in ops)

    return DeviceOp(run, label="zip", device=device)


def ready(value: T, *, label: str = "value", device: Device | None = None) -> DeviceOp[T]:
    """A DeviceOp that just yields `value` (used by constructors whose work is already enqueued)."""
    return DeviceOp(lambda _stream: value, label=label, device=device)
