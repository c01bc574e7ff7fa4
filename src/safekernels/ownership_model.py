"""What each safekernels call does to ownership: the ONE table (SPEC §4 "What moves", SPEC §5).

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

#: Methods whose *receiver* is moved (SPEC §4 "What moves"): `x.partition(...)` consumes `x`.  `graph_on`
#: consumes a DeviceOp like `sync_on` does (its chain is captured into a `DeviceGraph`, SPEC §7).
MOVING_METHODS: Final[frozenset[str]] = frozenset(
    {"partition", "unpartition", "sync_on", "sync", "graph_on", "then", "zip", "first", "shared"}
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

#: SIMT kernel-object methods and the positional index where the kernel's own arguments start.
SIMT_LAUNCH_METHODS: Final[dict[str, int]] = {
    "launch": 2,  # kernel.launch(prepared, stream, *args)
    "launch_async": 1,  # kernel.launch_async(prepared, *args) -> DeviceOp borrowing its buffers until synced
    "launch_unchecked": 2,  # kernel.launch_unchecked(config, stream, *args), needs unsafe
}

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
