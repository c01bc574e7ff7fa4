"""`DeviceOp[T]`: lazy GPU work that produces a `T` when synchronized (cutile-rs's `DeviceOp`).

Constructors and launches only *describe* work; nothing runs until `sync_on(stream)` (or `sync()`), which runs
the whole chain in order on that stream and synchronizes once.  Every combinator consumes its receiver
(docs/reference.md, "What moves"), so a chain can only be executed once, and the values it returns are the only
way back to the data:

    x ──then──▶ op ──zip──▶ op2 ──sync_on(stream)──▶ values

Execution is non-reentrant: calling `sync_on` from inside a running chain (for example inside a `then`
callback) raises instead of silently serializing.

`graph_on(stream)` consumes the op too, but instead of running the chain it captures it into a replayable
`DeviceGraph` (`runtime.graph`): constructors run once, kernel launches are recorded and run at each
`graph.replay()`.

An op that would run a kernel and is garbage-collected unrun (never synced, captured, chained or passed on) is a
kernel that silently never ran: `__del__` reports it as `UnusedDeviceOpWarning`, naming the kernel and the line
that built the op (`_kernel`, `_built`: class defaults, set only on ops that launch; the site is the move site the
launch made anyway, so building an op pays one attribute store and no frame walk).

`meta` optionally describes the value before it exists (the tile track stores shape and dtype there), so a
launch can check shapes when it is built rather than only when the chain runs.  `partition` / `unpartition`
are lazy versions of the value's own methods: they move the op and apply the method when the chain runs.
"""

from __future__ import annotations

import sys
import threading
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from safekernels.errors import BorrowError, DeviceError, DeviceOpAttributeError, UnusedDeviceOpWarning
from safekernels.runtime.device import Device, Stream
from safekernels.runtime.ownership import (
    Movable,
    MoveSite,
    chain_site,
    execution,
    internal_files,
    last_user_code,
    move_site,
    new_site,
    register_chain_code,
    user_frame,
    user_frame_from,
)

_getframe = sys._getframe
_new = object.__new__

if TYPE_CHECKING:
    from safekernels.runtime.graph import DeviceGraph
    from safekernels.tile.tensor import Partition, Tensor

T = TypeVar("T")
U = TypeVar("U")
OpT = TypeVar("OpT", bound="DeviceOp[Any]")

#: the threads where a DeviceOp is executing now (`threading.get_ident()`; at most one execution per thread:
#: execution is non-reentrant).  A set rather than a thread-local flag: the launch hot path asks "is it
#: empty?" (one global read) instead of reading a thread-local (~0.1 µs), and `set.add`/`discard` are atomic.
executing_threads: set[int] = set()
_get_ident = threading.get_ident


def _executing() -> bool:
    return bool(executing_threads) and _get_ident() in executing_threads


class DeviceOp(Movable, Generic[T]):
    """A not-yet-executed computation.  Moved by `sync_on`, `sync`, `graph_on`, `then`, `zip`, `first`,
    `shared`."""

    #: the kernel this op (or the chain it ends) launches: an op with one must be run (`__del__`), else None
    _kernel: str | None = None
    #: where the op was built (a `MoveSite` of the call that built it), read only for the warning
    _built: MoveSite | None = None
    #: the op's value is the tuple of a launch's arguments (`partition`/`unpartition` of it are refused)
    _yields_arguments = False

    def __init__(
        self,
        run: Callable[[Stream], T],
        *,
        label: str = "DeviceOp",
        device: Device | None = None,
        meta: Any = None,
    ) -> None:
        self._run = run
        self.label = label
        self.device = device  # the device the op's data lives on, when known
        self.meta = meta  # static description of the value when known (tile: `TensorSpec`), else None

    # -- execution -------------------------------------------------------------------------------------------
    def _execute(self, stream: Stream) -> T:
        """Run without moving (for combinators that already moved `self`)."""
        return self._run(stream)

    def sync_on(self, stream: Stream) -> T:
        """Run the chain on `stream`, wait for it, and hand back the value (consumes the op)."""
        if not isinstance(stream, Stream):  # checked before the move: a bad call leaves the op usable
            raise TypeError(
                "sync_on takes a safekernels Stream (`device.new_stream()`, `device.default_stream`), "
                f"got {type(stream).__name__}"
            )
        return self._sync(stream, "sync_on")

    def sync(self) -> T:
        """`sync_on` the default stream of the op's device (or of `Device.default()`)."""
        self._check_alive("sync")
        device = self.device if self.device is not None else Device.default()
        return self._sync(device.default_stream, "sync")

    def _sync(self, stream: Stream, operation: str) -> T:
        ident = _get_ident()
        if ident in executing_threads:
            _refuse_reentry()
        if self._moved is not None:
            self._check_alive(operation)
        frame = user_frame_from(2)  # 0: here, 1: sync_on / sync, 2: their caller
        self._moved = move_site(self, operation, frame)
        executing_threads.add(ident)
        pinned, execution.frame = execution.frame, frame  # moves made by the chain itself are reported here
        try:
            value = self._execute(stream)
        finally:
            executing_threads.discard(ident)
            execution.frame = pinned
        stream.synchronize()
        return value

    def graph_on(self, stream: Stream) -> DeviceGraph[T]:
        """Capture the chain into a replayable graph on `stream`'s device (consumes the op; runs no kernel).

        Constructors in the chain allocate and fill their tensors now, once; kernel launches and device copies
        are recorded and run at every `graph.replay()`, rewriting `graph.value` in place.  Work that a graph
        cannot replay (host reads or waits after captured work, host copies into memory the chain already
        uses) raises `GraphCaptureError`.  See `runtime.graph`.
        """
        from safekernels.runtime.graph import capture_graph

        _refuse_reentry()
        if not isinstance(stream, Stream):
            raise TypeError(f"graph_on takes a safekernels Stream, got {type(stream).__name__}")
        self._mark_moved("graph_on")
        ident = _get_ident()
        executing_threads.add(ident)
        pinned, execution.frame = execution.frame, user_frame(1)
        try:
            return capture_graph(self._execute, stream, label=self.label, keep=self)
        finally:
            executing_threads.discard(ident)
            execution.frame = pinned

    # -- combinators -----------------------------------------------------------------------------------------
    @overload
    def then(self, f: Callable[[T], DeviceOp[U]]) -> DeviceOp[U]: ...
    @overload
    def then(self, f: Callable[[T], U]) -> DeviceOp[U]: ...
    def then(self, f: Callable[[T], Any]) -> DeviceOp[Any]:
        """Feed this op's value to `f` on the same stream; if `f` returns a DeviceOp it runs too.

        (Two overloads, so that mypy infers the value of `op.then(lambda v: launch(...))`: with one signature
        over `DeviceOp[U] | U` it inferred `DeviceOp[Never]` for a lambda and refused the call.)"""
        if type(self) is ThenOp:  # `_mark_moved`, inlined: moves are checked, the site is our caller's frame
            head: Any = self
            if head._moved is not None:
                head._check_alive("then")
            frame: Any = _getframe(1)
            code = frame.f_code
            if code is not last_user_code[0]:
                if internal_files.get(code.co_filename) is not False:
                    frame = user_frame_from(1)
                    code = frame.f_code
                else:
                    last_user_code[0] = code
            head._moved = new_site(MoveSite, (None, code, frame.f_lasti, "then", 0))
            # moved now: its links become the new op's (one flat list per chain)
            steps: list[Callable[[Any], Any]] = head._steps
            steps.append(f)
            op = _new(ThenOp)  # ThenOp.__init__, inlined
            op._source = head._source
            op._steps = steps
            op._links = len(steps)
            op._built = head._moved
            return op
        self._mark_moved("then")
        chained = ThenOp(self, [f])
        chained._built = self._moved
        return chained

    def zip(self, *others: DeviceOp[Any]) -> DeviceOp[tuple[Any, ...]]:
        """One op whose value is the tuple of this op's and `others`' values (consumes all of them)."""
        return zip_ops(self, *others)

    # Typing: a `DeviceOp[tuple[X, ...rest]]` gives `DeviceOp[X]` and `DeviceOp[Tensor[T]].partition(...)` a
    # `DeviceOp[Partition[T]]` (and back); other values fall back to `DeviceOp[Any]`.
    @overload
    def first(self: DeviceOp[tuple[U, *tuple[Any, ...]]]) -> DeviceOp[U]: ...
    @overload
    def first(self) -> DeviceOp[Any]: ...
    def first(self) -> DeviceOp[Any]:
        """The first element of a tuple-valued op (e.g. the output of a launch)."""
        self._mark_moved("first")
        parent = self

        def run(stream: Stream) -> Any:
            value = parent._execute(stream)
            return value[0]  # type: ignore[index]

        return _inherit(DeviceOp(run, label=f"{self.label}.first", device=self.device), self)

    @overload
    def partition(self: DeviceOp[Tensor[U]], shape: Any) -> DeviceOp[Partition[U]]: ...
    @overload
    def partition(self, shape: Any) -> DeviceOp[Any]: ...
    def partition(self, shape: Any) -> DeviceOp[Any]:
        """Lazy `value.partition(shape)` (tile tensors); moves this op.  Known shape errors raise now."""
        self._check_alive("partition")
        if self._yields_arguments:
            _refuse_value_method(self, "partition")
        meta = self.meta.partition(shape) if self.meta is not None else None
        self._mark_moved("partition")
        parent = self

        def run(stream: Stream) -> Any:
            return parent._execute(stream).partition(shape)  # type: ignore[attr-defined]

        return _inherit(DeviceOp(run, label=f"{self.label}.partition", device=self.device, meta=meta), self)

    @overload
    def unpartition(self: DeviceOp[Partition[U]]) -> DeviceOp[Tensor[U]]: ...
    @overload
    def unpartition(self) -> DeviceOp[Any]: ...
    def unpartition(self) -> DeviceOp[Any]:
        """Lazy `value.unpartition()` (tile partitions); moves this op."""
        self._check_alive("unpartition")
        if self._yields_arguments:
            _refuse_value_method(self, "unpartition")
        meta = self.meta.unpartition() if self.meta is not None else None
        self._mark_moved("unpartition")
        parent = self

        def run(stream: Stream) -> Any:
            return parent._execute(stream).unpartition()  # type: ignore[attr-defined]

        return _inherit(DeviceOp(run, label=f"{self.label}.unpartition", device=self.device, meta=meta), self)

    def shared(self) -> SharedDeviceOp[T]:
        """Execute at most once and share the (read-only) value between several consumers."""
        self._mark_moved("shared")
        return _inherit(SharedDeviceOp(self), self)

    def __repr__(self) -> str:
        state = "moved" if self.is_moved else "pending"
        return f"<DeviceOp {self.label} ({state})>"

    # -- never run -------------------------------------------------------------------------------------------
    def __del__(self) -> None:
        if self._moved is None and self._kernel is not None:
            _warn_unrun(self)

    def __getattr__(self, name: str) -> Any:
        """Only for names the op does not have: a name of its value says to run the op first."""
        if name.startswith("_"):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if name in _value_attributes():
            raise DeviceOpAttributeError(
                f"`{type(self).__name__}` has no attribute `{name}`: a `DeviceOp` is a lazy operation, not its "
                f"value; call `.sync_on(stream)` first (it runs the op and returns the value{_returned(self)})"
            )
        raise DeviceOpAttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class SharedDeviceOp(DeviceOp[T]):
    """A `DeviceOp` that runs its source once; using it does not move it (its value is shared, read-only).

    The value (and each element of a tuple value) that has a `_mark_shared` hook is marked as shared storage:
    tile tensors then refuse `partition` ("Cannot create mutable partition from shared tensor storage.") and
    are not invalidated by the launches that read them, like clones of an `Arc` in cutile-rs.
    """

    def __init__(self, source: DeviceOp[T]) -> None:
        self._source = source
        self._done = False
        self._value: T | None = None
        meta = source.meta.as_shared() if hasattr(source.meta, "as_shared") else source.meta
        super().__init__(self._run_once, label=f"{source.label}.shared", device=source.device, meta=meta)

    def _run_once(self, stream: Stream) -> T:
        if not self._done:
            from safekernels.runtime import capture

            if capture.active() is not None:
                # its other consumers would see a value whose data exists only after a replay
                raise capture.GraphCaptureError(
                    f"graph_on: the shared op {self._source.label} has not run yet; sync it first "
                    "(`shared_op.sync_on(stream)` does not move it), then capture the chain that reads it"
                )
            value = self._source._execute(stream)
            for item in value if isinstance(value, tuple) else (value,):
                mark = getattr(item, "_mark_shared", None)
                if callable(mark):
                    mark()
            self._value = value
            self._done = True
        return self._value  # type: ignore[return-value]

    def _mark_moved(self, operation: str) -> None:
        self._check_alive(operation)  # shared values are never moved by their consumers
        self._used = True

    _used = False

    def __del__(self) -> None:
        if not self._done and not self._used and self._kernel is not None:
            _warn_unrun(self)

    def partition(self, shape: Any) -> DeviceOp[Any]:
        raise BorrowError(SHARED_PARTITION_MESSAGE)

    def _sync(self, stream: Stream, operation: str) -> T:
        _refuse_reentry()
        ident = _get_ident()
        executing_threads.add(ident)
        try:
            value = self._run_once(stream)
        finally:
            executing_threads.discard(ident)
        stream.synchronize()
        return value


class ThenOp(DeviceOp[Any]):
    """`op.then(f).then(g)...`: the source op and the list of its `then` callbacks, run as one flat loop.

    `then` on a ThenOp moves it and appends to its list (the moved op can never run again, so the list is the
    new op's alone), so a chain of n links is one op: no closure or frame per link, no recursion n deep when
    it runs.  A link whose callback returns a DeviceOp moves it, reported at the chain's pinned frame
    (`ownership.chain_site`, made once per execution), and runs it."""

    meta = None
    _source: DeviceOp[Any]
    _steps: list[Callable[[Any], Any]]
    _links: int

    def __init__(self, source: DeviceOp[Any], steps: list[Callable[[Any], Any]]) -> None:
        # DeviceOp's attributes without its __init__ (`then` inlines this); `label` and `device` are the
        # source's, read when asked for
        self._source = source
        self._steps = steps
        self._links = len(steps)

    @property
    def device(self) -> Device | None:
        return self._source.device

    @device.setter
    def device(self, value: Device | None) -> None:  # pragma: no cover - DeviceOp's attribute, never set here
        raise AttributeError("the device of a `then` chain is its source's")

    @property
    def label(self) -> str:
        return self._source.label + ".then" * self._links

    @label.setter
    def label(self, value: str) -> None:  # pragma: no cover - DeviceOp's attribute, never set on a chain
        raise AttributeError("the label of a `then` chain is derived from its source")

    @property
    def _kernel(self) -> str | None:  # type: ignore[override]
        kernel: str | None = self._source._kernel
        return kernel

    def _execute(self, stream: Stream) -> Any:
        value = self._source._execute(stream)
        site = None
        plain = _PLAIN_MARK
        for f in self._steps:
            value = f(value)
            if isinstance(value, DeviceOp):
                if type(value)._mark_moved is not plain:  # a shared op is not moved by its users
                    value._mark_moved("then")
                else:
                    if value._moved is not None:
                        value._check_alive("then")
                    if site is None:
                        site = chain_site("then")
                    value._moved = site
                value = value._execute(stream)
        return value


_PLAIN_MARK = Movable._mark_moved

SHARED_PARTITION_MESSAGE = "Cannot create mutable partition from shared tensor storage."


def _refuse_reentry() -> None:
    if _executing():
        raise DeviceError(
            "DeviceOp execution is non-reentrant: sync_on/sync was called while another DeviceOp is "
            "executing (inside a `then` callback or a kernel body?); return a DeviceOp from the callback "
            "instead"
        )


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

    zipped: DeviceOp[tuple[Any, ...]] = DeviceOp(run, label="zip", device=device)
    zipped._kernel = next((op._kernel for op in ops if op._kernel is not None), None)
    zipped._built = ops[0]._moved
    return zipped


def _inherit(op: OpT, source: DeviceOp[Any]) -> OpT:
    """`op`, built from `source` (which it moved), launches what `source` launches."""
    kernel = source._kernel
    if kernel is not None:
        op._kernel = kernel
        op._built = source._moved
    return op


def launch_op(op: DeviceOp[T], kernel: str, built: MoveSite) -> DeviceOp[T]:
    """Mark `op` as the op of a launch of `kernel` built at `built`: its value is the tuple of the arguments, and
    it must be run."""
    op._kernel = kernel
    op._built = built
    op._yields_arguments = True
    return op


#: `warn_explicit`'s once-per-location registry for the never-run warning
_WARNED: dict[Any, Any] = {}



def _warn_unrun(op: DeviceOp[Any]) -> None:
    """`op` is being collected unrun: warn, at the line that built it (only now is that line looked up)."""
    try:
        site = op._built
        filename, line = (site.filename, site.line) if site is not None else ("<unknown>", 0)
        warnings.warn_explicit(
            f"DeviceOp of kernel `{op._kernel}` built at {filename}:{line} was never run: it was dropped "
            "without `sync_on`/`sync`/`graph_on` and without being chained, so the kernel never ran and the "
            "values moved into it are lost (run it with `.sync_on(stream)`)",
            UnusedDeviceOpWarning,
            filename,
            line,
            registry=_WARNED,
        )
    except Exception:  # pragma: no cover - interpreter shutdown, or -W error: a finalizer must not raise
        pass


_VALUE_ATTRIBUTES: set[str] = set()


def _value_attributes() -> set[str]:
    """Public attribute names of the values an op yields (tile tensors and partitions, device buffers)."""
    if not _VALUE_ATTRIBUTES:
        from safekernels.runtime.buffer import DeviceBuffer
        from safekernels.tile.tensor import Partition, Tensor

        for cls in (Tensor, Partition, DeviceBuffer):
            _VALUE_ATTRIBUTES.update(n for n in dir(cls) if not n.startswith("_"))
        _VALUE_ATTRIBUTES.difference_update(n for n in dir(DeviceOp) if not n.startswith("_"))
        _VALUE_ATTRIBUTES.update(("to_numpy", "unpartition", "partition", "shape", "dtype"))
    return _VALUE_ATTRIBUTES


def _returned(op: DeviceOp[Any]) -> str:
    return ": the tuple of the launch's arguments, `z, x, y = op.sync_on(stream)`" if op._yields_arguments else ""


def _refuse_value_method(op: DeviceOp[Any], name: str) -> None:
    raise DeviceOpAttributeError(
        f"`{name}` of a launch's `DeviceOp`: its value is the tuple of the launch's arguments, so call "
        f"`.sync_on(stream)` first and `{name}` the one you need (or take it lazily with `.first()`)"
    )


if not sys.warnoptions:  # shown by default like a never-awaited coroutine; `-W` options the user gave win
    warnings.filterwarnings("default", category=UnusedDeviceOpWarning)


# a chain's nested executions all pass through `_execute`: the ownership walk stops there (runtime.ownership)
register_chain_code(DeviceOp._execute.__code__)
register_chain_code(ThenOp._execute.__code__)


def ready(value: T, *, label: str = "value", device: Device | None = None) -> DeviceOp[T]:
    """A DeviceOp that just yields `value` (used by constructors whose work is already enqueued)."""
    return DeviceOp(lambda _stream: value, label=label, device=device)
