"""What one argument signature of a tile kernel has been checked to be: the per-kernel launch plan cache.

Checking a tile launch (kinds, dtypes, declared `Dims`, grid agreement) depends only on the arguments'
*specs*: for each argument its kind, shape, dtype, tile shape, whether it is shared storage and its device, or
the Python type of a scalar.  `arg_key` turns an argument into a small hashable key of exactly that (a tile
`Tensor`/`Partition` carries it precomputed as `_key`, an interned `tensor.SpecKey` that only tile handles
have, so a kernel whose arguments have all been tile handles reads the keys with one C-level
`map(attrgetter("_key"), args)`), and `TileKernel` keeps one `LaunchPlan` per tuple of keys:

    add(z, x, y)  -> key = (z._key, x._key, y._key)  -> plans.get(key)
                     hit:  liveness, E0505, moves, one DeviceOp       (no shape check, no specialization)
                           the moves are the plan's generated `bind` (`generate_bind`): straight-line
                           liveness and same-value tests, successor handles, move marks
                     miss: the full checks (their errors unchanged) -> a new plan for the key

    op.sync_on(s) -> the plan's grid, device and overlap pairs        (values are the handles the call moved)
                     GPU: the plan's generated launcher packs pointers into fixed parameter storage
                     (`gpu_launch.build_fast_launch`), like the SIMT fast path; the eager `sync_on` of
                     one launch calls its twin that also synchronizes the stream

What is never cached, because it is a property of the values and not of the specs: whether a value was moved
(`UseAfterMoveError`), pending `launch_async` borrows (E0505), overlapping memory (`AliasingError`), the
device of the stream the launch runs on, and pointer alignment (the GPU launcher falls back to the checked
launch when an alignment differs from the one its kernel was specialized for).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.device import Device
from safekernels.runtime.device_op import DeviceOp, SharedDeviceOp
from safekernels.tile.ops import Shape
from safekernels.tile.signature import TileParam
from safekernels.tile.tensor import Partition, Tensor

# Argument kinds, per position of a plan.
HANDLE = 0  # an owned Tensor / Partition: moved (the caller's handle dies, the launch gets a successor)
SHARED_HANDLE = 1  # a shared-storage Tensor: used, not consumed
OP = 2  # a DeviceOp: moved, executed when the launch runs
SHARED_OP = 3  # a SharedDeviceOp: used, not consumed
BUFFER = 4  # a SIMT DeviceBuffer for a Tensor parameter: moved, runs as the 1-D tensor
SCALAR = 5

# How a call makes the successor of a moved argument (`LaunchPlan.moving`; falsy: not a handle, no successor):
NOT_HANDLE = 0
COPY_TENSOR = 1  # exactly a Tensor: its buffer, shape and key
COPY_PARTITION = 2  # exactly a Partition: the same and its tile shape
COPY_STATE = 3  # a subclass: its whole state but the loans


def _copy_as(arg: Any) -> int:
    t = type(arg)
    return COPY_TENSOR if t is Tensor else COPY_PARTITION if t is Partition else COPY_STATE


#: the key of an argument whose spec cannot be hashed (a launch with one is checked in full every time)
_UNCACHEABLE = object()


def arg_key(arg: Any) -> object:
    """The spec key of one launch argument (see the module doc); `_UNCACHEABLE` when it has none."""
    t = type(arg)
    if t is Tensor or t is Partition:
        return arg._key
    if t is int or t is float or t is bool:
        return t
    if isinstance(arg, DeviceOp):
        meta = arg.meta
        try:
            hash(meta)
        except TypeError:
            return _UNCACHEABLE
        return (OP, t, meta)
    if isinstance(arg, DeviceBuffer):
        return (BUFFER, arg.length, arg.dtype.name, arg.device, arg._parent is None)
    if isinstance(arg, Tensor | Partition):
        return arg._key  # its `SpecKey` names its type too
    return t


def launch_key(args: Sequence[Any]) -> tuple[object, ...] | None:
    """The plan-cache key of a whole argument list, or None when some argument cannot be keyed."""
    key = tuple([arg_key(a) for a in args])
    return None if _UNCACHEABLE in key else key


class LaunchPlan:
    """The checked facts of one argument signature (built only after every check passed).

    `kinds` per argument; `grid` when every partition's spec was known; `device` the one device of all
    tensor arguments when they agree and are known (else None: the execution re-checks); `overlaps` the
    argument pairs the aliasing check compares (an output partition or atomic tensor against every other);
    `direct` when the execution's values are the call's moved handles (no DeviceOp or DeviceBuffer
    argument); `device_arg` the first tensor-like argument (a launch's DeviceOp reports its device,
    `call_device` when that argument is not a DeviceOp); `gpu_launch` the generated GPU launcher, built on
    the first GPU launch (False: not eligible), `gpu_sync` its twin that also synchronizes the stream (the
    eager `sync_on`); `bind` the generated moves of a direct call (`generate_bind`), None when the call
    binds argument by argument."""

    __slots__ = (
        "bind",
        "call_device",
        "casts",
        "device",
        "device_arg",
        "direct",
        "gpu_launch",
        "gpu_sync",
        "grid",
        "handles_only",
        "kernel",
        "kinds",
        "moves_fast",
        "moving",
        "on_gpu",
        "overlaps",
    )

    def __init__(self, kernel: Any, args: Sequence[Any], grid: Shape | None) -> None:
        self.kernel = kernel  # the `TileKernel` whose plan this is (its launches' ops reach it through here)
        params: Sequence[TileParam] = kernel.params
        kinds: list[int] = []
        devices: list[Device | None] = []
        for param, arg in zip(params, args, strict=True):
            if param.kind == "scalar":
                kinds.append(SCALAR)
                continue
            if isinstance(arg, SharedDeviceOp):
                kinds.append(SHARED_OP)
            elif isinstance(arg, DeviceOp):
                kinds.append(OP)
            elif isinstance(arg, DeviceBuffer):
                kinds.append(BUFFER)
            else:
                kinds.append(SHARED_HANDLE if arg.is_shared else HANDLE)
            devices.append(arg.device)
        self.kinds = tuple(kinds)
        # (index, how to copy it) of the arguments a call consumes; a handle's caller gets a successor handle
        self.moving = tuple(
            (i, _copy_as(args[i]) if k == HANDLE else NOT_HANDLE) for i, k in enumerate(kinds) if k in (HANDLE, OP)
        )
        self.casts = tuple((i, p.cast) for i, p in enumerate(params) if p.kind == "scalar" and p.cast is not None)
        self.grid = grid
        known = [d for d in devices if d is not None]
        self.device = known[0] if known and len(known) == len(devices) and len(set(map(id, known))) == 1 else None
        self.on_gpu = self.device is not None and self.device.is_gpu
        self.direct = all(k in (HANDLE, SHARED_HANDLE, SCALAR) for k in kinds)
        self.handles_only = all(k in (HANDLE, SHARED_HANDLE) for k in kinds)  # each argument has a `_key`
        self.moves_fast = BUFFER not in kinds
        self.device_arg = next((i for i, k in enumerate(kinds) if k != SCALAR), -1)
        # the device a call's DeviceOp reports: its first tensor argument's (read per call from a DeviceOp)
        self.call_device = devices[0] if devices else None
        tensors = [i for i, k in enumerate(kinds) if k != SCALAR]
        pairs: list[tuple[int, int]] = []
        for i in tensors:
            if params[i].kind not in ("partition", "atomic"):  # the outputs (runtime twin of E0502/E0499)
                continue
            for j in tensors:
                if j != i and (j, i) not in pairs:
                    pairs.append((i, j))
        self.overlaps = tuple(pairs)
        self.gpu_launch: Any = None
        self.gpu_sync: Any = None  # its twin that also synchronizes the stream (`gpu_launch.synced_launch`)
        self.bind: Bind | None = generate_bind(self, len(params)) if self.direct and self.moves_fast else None

    def __repr__(self) -> str:
        return f"<LaunchPlan kinds={self.kinds} grid={self.grid} device={self.device!r} direct={self.direct}>"


#: `bind(args, site) -> values | None`: a direct plan's moves, generated (see `generate_bind`).
Bind = Callable[[Sequence[Any], Any], "tuple[Any, ...] | None"]


def generate_bind(plan: LaunchPlan, n: int) -> Bind | None:
    """The moves of a call with `plan` (direct: tile handles and scalars only), as one straight-line function.

    `bind(args, site)` returns the launch's values: a successor handle for each moved argument (a Tensor /
    Partition made from its buffer, shape, key and tile shape, as `_Owned._successor` makes one), shared
    handles as they are, scalars through their casts; each moved argument is marked moved at `site`, and the
    `as_buffer` handles a moved tensor lent end with it.  It returns None before anything moved when an
    argument was moved already or the same value is given twice: the caller then binds argument by argument,
    which raises the error naming it.  None (no generated function) when a moved argument is a subclass."""
    moving = [i for i, _copy in plan.moving]
    if any(copy not in (COPY_TENSOR, COPY_PARTITION) for _i, copy in plan.moving):
        return None
    casts = dict(plan.casts)
    lines = [f"{''.join(f'a{i}, ' for i in range(n))}= args"] if n else []
    if moving:
        lines += [f"if {' or '.join(f'a{i}._moved is not None' for i in moving)}:", "    return None"]
    same = [f"a{i} is a{j}" for k, i in enumerate(moving) for j in moving[k + 1 :]]
    if same:
        lines += [f"if {' or '.join(same)}:", "    return None"]
    lines += [f"c{i} = CAST{i}(a{i})" for i in casts]  # before any move: a scalar that does not fit moves nothing
    for i, copy in plan.moving:
        lines.append(f"s{i} = NEW({'PARTITION' if copy == COPY_PARTITION else 'TENSOR'})")
        if copy == COPY_PARTITION:
            lines.append(f"s{i}._tile_shape = a{i}._tile_shape")
        lines += [f"s{i}._buffer = a{i}._buffer", f"s{i}._shape = a{i}._shape", f"s{i}._key = a{i}._key"]
    lines += [f"a{i}._moved = site" for i in moving]
    for i, copy in plan.moving:  # only a 1-D Tensor lends (`Tensor.as_buffer`)
        if copy == COPY_TENSOR:
            lines += [f"if a{i}._lent:", f"    a{i}._end_loans()"]
    values = [f"s{i}" if i in moving else f"c{i}" if i in casts else f"a{i}" for i in range(n)]
    lines.append(f"return ({''.join(v + ', ' for v in values)})")
    namespace: dict[str, Any] = {"NEW": object.__new__, "TENSOR": Tensor, "PARTITION": Partition}
    namespace.update({f"CAST{i}": cast for i, cast in casts.items()})
    source = "def bind(args, site):\n" + "".join(f"    {line}\n" for line in lines)
    namespace["SOURCE"] = source
    exec(compile(source, f"<safekernels tile moves of {plan.kernel.name}>", "exec"), namespace)
    bind: Bind = namespace["bind"]
    return bind
