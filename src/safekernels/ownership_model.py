"""What each safekernels call does to ownership: the ONE table (docs/reference.md §3-4).

The runtime (which invalidates moved Python objects), the CPU executor, codegen (which refuses unsafe operations
outside `with simt.unsafe():`) and both checker front ends (libcst and mypy, through `ownership_check.core`) read
these tables; nobody re-declares them.  Keep this module pure data: it is imported by the checker, which must not
pull in numpy, llvmlite or a GPU driver.

Vocabulary (rustc's):
- *move*: the value is consumed; later uses are `E0382`.
- *shared borrow*: read-only access for the duration of a launch (or of a pending `DeviceOp`).
- *mutable borrow*: exclusive access; overlapping with any other borrow is `E0502` / `E0499`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final


class ParamMode(enum.StrEnum):
    """How a kernel parameter takes its host argument."""

    SHARED = "shared"  # Slice[T] (SIMT), read-only
    MUT = "mut"  # DisjointSlice[T], AtomicSlice[T] (SIMT): exclusive for the launch
    MOVE = "move"  # Tensor[T], Partition[T] (tile): ownership goes into the launch, comes back at sync_on
    VALUE = "value"  # scalars: copied


#: Kernel parameter annotation (the generic class's simple name) -> how the launch takes the argument.
PARAM_MODES: Final[dict[str, ParamMode]] = {
    "Slice": ParamMode.SHARED,
    "DisjointSlice": ParamMode.MUT,
    "AtomicSlice": ParamMode.MUT,
    "Tensor": ParamMode.MOVE,
    "Partition": ParamMode.MOVE,
    # tile: a whole output tensor updated by every tile block through atomics (docs/tile.md "AtomicTensor"):
    # moved into the launch like Tensor/Partition, so no other argument and no host code can alias it
    "AtomicTensor": ParamMode.MOVE,
}

#: Methods whose *receiver* is moved (docs/reference.md "What moves"): `x.partition(...)` consumes `x`.  `graph_on`
#: consumes a DeviceOp like `sync_on` does (its chain is captured into a `DeviceGraph`).  `buf.to(device, stream)`
#: moves a device buffer to another device (the returned buffer holds the data); it is not distinct (torch's
#: `tensor.to(...)` copies), so only receivers known to be safekernels values move.
MOVING_METHODS: Final[frozenset[str]] = frozenset(
    {"partition", "unpartition", "sync_on", "sync", "graph_on", "then", "zip", "first", "shared", "to"}
)

#: Calls whose DeviceOp *arguments* are moved too (`a.zip(b)` and `safekernels.zip(a, b)` consume `b`).
MOVING_ARGUMENT_CALLS: Final[frozenset[str]] = frozenset({"zip"})

#: Moving methods no other library defines: their receiver is moved whatever the analysis knows about it (the
#: other moving methods count only on values known to be safekernels values, so `line.partition("=")` is silent).
DISTINCT_MOVING_METHODS: Final[frozenset[str]] = frozenset({"sync_on", "unpartition"})

#: Annotations (a generic class's simple name) that mark a variable or parameter as a safekernels device value.
DEVICE_ANNOTATIONS: Final[frozenset[str]] = frozenset(
    {"Tensor", "Partition", "AtomicTensor", "DeviceOp", "DeviceBuffer", "Slice", "DisjointSlice", "AtomicSlice"}
)

#: Methods that only borrow their receiver shared (read it, hand it back): `to_numpy` syncs and borrows.
BORROWING_METHODS: Final[frozenset[str]] = frozenset({"to_numpy", "view", "split_at"})

#: Methods returning a view that aliases the receiver's storage (overlap reasoning applies to them).
VIEW_METHODS: Final[frozenset[str]] = frozenset({"view", "split_at"})

#: How a launch takes its arguments, per entry point (see `LAUNCH_FORMS`).
@dataclass(frozen=True)
class LaunchForm:
    """One public way to launch a kernel, and how its call's arguments map to the kernel's parameters.

    `leading` positional arguments come before the kernel's own (`prepared, stream` for `launch`); `prepared` is
    the index among them of the brand-carrying `PreparedLaunch` (E0308), None when the form takes none.  The
    kernel's own arguments then map to its parameters in order (and by name where `keywords`), each taken by
    its parameter's `ParamMode`.  `result` is what the call returns: `"op"` a lazy `DeviceOp` (its loans last
    until it is consumed when `holds_loans`), `"value"` anything else.
    """

    leading: int
    prepared: int | None
    unsafe: bool
    result: str
    holds_loans: bool
    keywords: bool


#: Kernel kinds: a track (`simt`, `tile`) or an autotuned kernel of one (`simt.autotune`, `tile.autotune`).
SIMT: Final[str] = "simt"
TILE: Final[str] = "tile"
SIMT_AUTOTUNE: Final[str] = "simt.autotune"
TILE_AUTOTUNE: Final[str] = "tile.autotune"

#: Every launch entry point: (kernel kind, method; None = calling the kernel object) -> its `LaunchForm`.
#: Nothing else launches a kernel (a `@simt.kernel` called directly raises `TypeError`).
LAUNCH_FORMS: Final[dict[tuple[str, str | None], LaunchForm]] = {
    # kernel.launch(prepared, stream, *args): checked now, borrows for the launch
    (SIMT, "launch"): LaunchForm(2, 0, False, "value", False, False),
    # kernel.launch_async(prepared, *args) -> DeviceOp borrowing its buffers until synced (or dropped)
    (SIMT, "launch_async"): LaunchForm(1, 0, False, "op", True, False),
    # kernel.launch_unchecked(config, stream, *args): no brand, needs `with simt.unsafe():`
    (SIMT, "launch_unchecked"): LaunchForm(2, None, True, "value", False, False),
    # @simt.autotune: tuned.launch(stream, *args), the tuner prepares the launch itself
    (SIMT_AUTOTUNE, "launch"): LaunchForm(1, None, False, "value", False, False),
    # @tile.kernel: k(*args, **kwargs) -> DeviceOp; Tensor / Partition / DeviceOp arguments move in
    (TILE, None): LaunchForm(0, None, False, "op", False, True),
    # @tile.autotune: tuned(*args) -> DeviceOp, positional arguments only
    (TILE_AUTOTUNE, None): LaunchForm(0, None, False, "op", False, False),
}

#: Decorators that wrap a kernel into an autotuned one (applied above the kernel decorator), by qualified name.
KERNEL_WRAPPERS: Final[dict[str, str]] = {
    "safekernels.simt.autotune": SIMT_AUTOTUNE,
    "safekernels.tile.autotune": TILE_AUTOTUNE,
}


def kernel_kind(track: str, autotuned: bool) -> str:
    """The `LAUNCH_FORMS` kind of a kernel of `track`, autotuned or not."""
    if not autotuned:
        return track
    return SIMT_AUTOTUNE if track == SIMT else TILE_AUTOTUNE


def launch_form(track: str, autotuned: bool, method: str | None) -> LaunchForm | None:
    """How `kernel.method(...)` (or `kernel(...)` for `method=None`) launches, or None if it does not."""
    return LAUNCH_FORMS.get((kernel_kind(track, autotuned), method))


#: SIMT kernel-object methods that launch (any kernel kind), for hooks that select calls by method name.
SIMT_LAUNCH_METHODS: Final[frozenset[str]] = frozenset(
    method for (kind, method) in LAUNCH_FORMS if method is not None and kind in (SIMT, SIMT_AUTOTUNE)
)

#: Methods whose result op carries the pending work of the ops they consume, and so the loans that work holds
#: (`pending.then(f)`: `pending`'s buffers stay borrowed until the chain runs).  `sync_on` / `sync` /
#: `graph_on` run (or capture) the chain instead, which ends the loans.
LOAN_INHERITING_METHODS: Final[frozenset[str]] = frozenset(
    {"then", "zip", "first", "partition", "unpartition", "shared"}
)

#: Methods whose argument is the user's code, which `sync_on` runs after the chain's launches took their arguments
#: (`op.then(check)`): an exception it raises leaves those arguments moved.
CALLBACK_METHODS: Final[frozenset[str]] = frozenset({"then"})

#: Methods whose result is a *shared* op: consumers read it and never move it (`SharedDeviceOp`): a launch, a
#: `sync_on`, a second launch may all use it.
SHARED_RESULT_METHODS: Final[frozenset[str]] = frozenset({"shared"})

#: How the value of an op built by a consuming method is made of the consumed op's value, for the objects a
#: `launch_async` op's value holds (it is the tuple of the launch's own arguments, the same buffer objects, not
#: copies): `"value"` the same value (`sync_on` / `sync` return it, `shared` shares it), `"first"` its first item,
#: `"tuple"` the tuple of the receiver's and the other ops' values (`zip`).  So `a, b, c = op.sync_on(s)` rebinds
#: the launch's buffers, and `(a, b, c), _ = op.zip(other).sync_on(s)` too.  `then(f)` is `f`'s result, which may
#: be the values `f` is handed (`lambda values: values`): where `f` is not followed, the value is taken to be the
#: receiver's, the conservative reading (names bound from it may be the launch's buffers, as at run time).
VALUE_FLOW_METHODS: Final[dict[str, str]] = {
    "then": "value",
    "sync_on": "value",
    "sync": "value",
    "shared": "value",
    "first": "first",
    "zip": "tuple",
}

#: Functions whose result shares the storage of one argument (by position): `sk.as_buffer(t)` wraps `t`'s memory
#: without copying (a `DeviceBuffer` argument is returned as is), so it is an alias of `t`, not a new buffer.
ALIASING_FUNCTIONS: Final[dict[str, int]] = {"as_buffer": 0}

#: Methods whose result shares their receiver's storage: `t.as_buffer()` is the method form of `sk.as_buffer(t)`,
#: so a launch or a pending op that borrows the result borrows `t`.
ALIASING_METHODS: Final[frozenset[str]] = frozenset({"as_buffer"})

#: Kernel-side classes whose values need `with simt.unsafe():` for element access (a `@simt.device` helper
#: parameter annotated `SharedArray[T]` is one).
SHARED_ARRAY_ANNOTATIONS: Final[frozenset[str]] = frozenset({"SharedArray"})

#: Host-side classes whose values are *shared* ops (`SharedDeviceOp`): a parameter annotated so is read by every
#: launch it is given to and never moved, as the result of `.shared()` is (`SHARED_RESULT_METHODS`).
SHARED_OP_ANNOTATIONS: Final[frozenset[str]] = frozenset({"SharedDeviceOp"})

#: Operations that require a lexically enclosing `with simt.unsafe():` (E0133).
UNSAFE_OPERATIONS: Final[frozenset[str]] = frozenset({"shared_array", "get_unchecked_mut", "launch_unchecked"})

#: The witness-consuming kernel-side call: `c.get_mut(idx)` moves `idx` (a second use is E0382).
WITNESS_CONSUMERS: Final[frozenset[str]] = frozenset({"get_mut"})

#: Kernel decorators, by qualified name, and which track they belong to.
KERNEL_DECORATORS: Final[dict[str, str]] = {
    "safekernels.simt.kernel": "simt",
    "safekernels.tile.kernel": "tile",
}

#: Calls that produce a brand-carrying PreparedLaunch (used for E0308).
PREPARE_METHOD: Final[str] = "prepare"

#: Kernel-side constructor of block-shared memory (needs unsafe; element access of its result needs it too).
SHARED_ARRAY_CONSTRUCTOR: Final[str] = "safekernels.simt.shared_array"

#: Decorator of SIMT device helpers (they do not inherit a caller's unsafe block).
DEVICE_DECORATOR: Final[str] = "safekernels.simt.device"

#: The lexical unsafe context manager, by qualified name.
UNSAFE_CONTEXT: Final[str] = "safekernels.simt.unsafe"


def param_mode(annotation_name: str) -> ParamMode:
    """Mode of a parameter whose annotation's generic class is `annotation_name` (scalars are VALUE)."""
    return PARAM_MODES.get(annotation_name, ParamMode.VALUE)
