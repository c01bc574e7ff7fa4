"""`@tile.kernel` and the tile launch: `add(z, x, y)` -> `DeviceOp[(z, x, y)]`.

A launch is lazy and takes ownership, as cutile-rs's generated launchers do:

1. it checks the arguments against the parameters (kinds, dtypes, declared `Dims`, grid agreement) with
   whatever is known now (tensors, partitions, and the `meta` of constructor ops), so a `ShapeError` leaves
   them untouched;
2. it moves every Tensor / Partition / DeviceOp argument, in order (`ownership_model.PARAM_MODES` says which
   parameters move).  The same value twice is refused by the second move: "moved by the first".  A SIMT
   `DeviceBuffer` is accepted for a `Tensor` parameter (as the 1-D tensor `(len,)`) and moved the same way; for
   a `Partition` parameter it must come through `buf.partition(tile_shape)`.  Memory that a pending SIMT
   `launch_async` still borrows is refused before anything moves (`BorrowError`, E0505);
3. it returns a `DeviceOp` whose execution runs the DeviceOp arguments (in argument order), checks the real
   values, runs the kernel (CPU executor, or the compiled kernel on a GPU) and yields the tuple of ALL the
   arguments in order, so the caller gets back what it put in (a fresh `DeviceBuffer` handle for a buffer).

Checks 1 and 3 depend only on the arguments' specs, so each kernel keeps a launch plan per spec key
(`tile.launch_plan`): the first call with a key checks in full and makes the plan; a repeat does one dict
lookup, then only what depends on the values (liveness, E0505, moves at one recorded call site, through the
plan's generated moves) and returns a `TileLaunchOp`, whose execution checks the stream's device and the
overlaps and launches (on a GPU through the plan's generated launcher; its `sync_on` launches and
synchronizes in one generated call, see `TileLaunchOp`).  A launch whose values come from DeviceOps checks
them once per spec key too.
"""

from __future__ import annotations

import copy
import operator
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from safekernels.errors import AliasingError, BorrowError
from safekernels.runtime.buffer import DeviceBuffer
from safekernels.runtime.device import Stream
from safekernels.runtime.device_op import DeviceOp, executing_threads, launch_op
from safekernels.runtime.ownership import (
    MoveSite,
    call_site,
    internal_files,
    last_user_code,
    new_site,
    register_chain_code,
    user_frame_from,
)
from safekernels.simt.definition_site import definition_error
from safekernels.tile.context import block_state, block_threads
from safekernels.tile.launch_plan import (
    _UNCACHEABLE,
    BUFFER,
    HANDLE,
    OP,
    SCALAR,
    SHARED_OP,
    LaunchPlan,
    arg_key,
    launch_key,
)
from safekernels.tile.ops import Shape
from safekernels.tile.shape_ties import ShapeTie, implied_shape_ties
from safekernels.tile.signature import TileParam, check_launch_shapes, independent_ties, parse_params
from safekernels.tile.tensor import Partition, Tensor, TensorSpec

if TYPE_CHECKING:
    from safekernels.asm import KernelAsm

_HANDLES = frozenset((Tensor, Partition))
_getframe = sys._getframe
_new = object.__new__
_spec_key = operator.attrgetter("_key")  # a tile handle's `SpecKey` (only tile handles have one)


_HELD: list[Any] = []  # `simt.borrows.pending_records()`, the live list, once that module is imported


def _borrows_pending() -> bool:
    """True when some SIMT `launch_async` still borrows memory (then each argument is checked for E0505)."""
    if not _HELD:
        borrows = sys.modules.get("safekernels.simt.borrows")
        if borrows is None:
            return False
        _HELD.append(borrows.pending_records())
    return bool(_HELD[0])


class TileKernel:
    """A tile kernel.  Calling it launches (lazily): `op = add(z, x, y)`; `z, x, y = op.sync_on(stream)`."""

    def __init__(
        self,
        fn: Callable[..., None],
        localns: dict[str, Any] | None,
        *,
        num_warps: int | None = None,
        fast_math: bool = False,
        independent_shapes: tuple[str, ...] = (),
    ) -> None:
        if num_warps is not None and (not isinstance(num_warps, int) or not 1 <= num_warps <= 32):
            raise ValueError(f"@tile.kernel(num_warps=...) must be an int in 1..32, got {num_warps!r}")
        if not isinstance(fast_math, bool):
            raise ValueError(f"@tile.kernel(fast_math=...) must be True or False, got {fast_math!r}")
        self.fn = fn
        self.num_warps = num_warps  # None: the compiler's heuristic picks the CTA size
        self.fast_math = fast_math  # GPU code may contract a*b+c and flush tiny exp/exp2 results (docs/tile.md)
        self.name = fn.__name__
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        try:
            self.params: list[TileParam] = parse_params(fn, localns)
        except TypeError as exc:  # located at the parameter (or the definition), as a SIMT kernel's
            named = re.search(r"parameter `(\w+)", str(exc))
            raise definition_error(fn, "SK011", str(exc), named.group(1) if named else None) from None
        if isinstance(independent_shapes, str) or not isinstance(independent_shapes, tuple | list):
            raise TypeError(
                f"@tile.kernel(independent_shapes=...) takes a tuple of parameter names, got {independent_shapes!r}"
            )
        independent_ties(self.name, self.params, (), independent_shapes)  # the names are parameters
        #: parameters whose shapes may differ from what the body's loads imply (`tile.shape_ties`)
        self.independent_shapes = tuple(independent_shapes)
        self._shape_ties: tuple[ShapeTie, ...] | None = None
        self._label = f"{self.name}(...)"
        self._casts = tuple(p.cast for p in self.params)
        #: argument spec key -> the plan checked for it (`tile.launch_plan`)
        self._plans: dict[tuple[object, ...], LaunchPlan] = {}
        #: whether the last call's arguments were all tile handles (then the next call reads their keys in C;
        #: a first launch from constructor ops, or a kernel with scalars, makes them per type)
        self._handles_only = True
        # a subclass that overrides `_execute` (sk.load_prebuilt refuses the CPU executor there) keeps it on
        # the CPU executor; on a GPU its launches go through `launch_tile_on_gpu` like everyone's
        self._cpu_via_execute = type(self)._execute is not TileKernel._execute

    def __call__(self, *args: Any, **kwargs: Any) -> DeviceOp[tuple[Any, ...]]:
        if kwargs:
            raise TypeError(f"{self.name}: tile launches take positional arguments only")
        if block_threads and block_state.block is not None:  # current_block(), inlined
            raise TypeError(f"{self.name}: tile kernels cannot be launched from inside a kernel body")
        handles = self._handles_only
        if handles:  # the last call's arguments were all tile handles: their keys, read in C
            try:
                key = tuple(map(_spec_key, args))
            except AttributeError:  # a scalar, an op, a buffer, ...: the general keys until the next
                handles = self._handles_only = False  # all-handle call
                key = tuple([arg_key(a) for a in args])
        else:
            key = tuple([a._key if type(a) in _HANDLES else arg_key(a) for a in args])
        plan = self._plans.get(key)  # a key with an unhashable spec is never stored: it misses
        if plan is None:
            plan = self._check_call(args)
            if _UNCACHEABLE not in key:
                self._plans[key] = plan
        if not handles and plan.handles_only:
            self._handles_only = True
        bind = plan.bind
        if bind is not None and not (_HELD[0] if _HELD else _borrows_pending()):
            # the common launch: one frame read for the call site, the plan's generated moves
            frame: Any = _getframe(1)
            code = frame.f_code
            if code is not last_user_code[0]:
                if internal_files.get(code.co_filename) is not False:
                    frame = user_frame_from(1)  # made by this package (a bridge, autotune, ...), or unknown yet
                    code = frame.f_code
                else:
                    last_user_code[0] = code
            site = new_site(MoveSite, (None, code, frame.f_lasti, self.name, 0))
            moved = bind(args, site)
            if moved is not None:
                op = _new(TileLaunchOp)  # TileLaunchOp.__init__, inlined
                op._plan = plan
                op._bound = moved
                op._built = site  # for the never-run warning (`DeviceOp.__del__`)
                return op
            # refused, nothing moved: the binding below raises the error that names the argument
        bound = self._bind(plan, args)
        built = call_site(self.name, 1)
        if plan.direct:
            direct = TileLaunchOp(plan, bound)
            direct._built = built
            return direct
        first = plan.device_arg
        device = args[first].device if plan.kinds[first] in (OP, SHARED_OP) else plan.call_device
        kernel = self

        def run(stream: Stream) -> tuple[Any, ...]:
            values = tuple([a._execute(stream) if isinstance(a, DeviceOp) else a for a in bound])
            kernel._launch_values(stream, values)
            return values

        return launch_op(DeviceOp(run, label=self._label, device=device), self.name, built)

    # -- the call: check (plan miss), then move ----------------------------------------------------------
    @property
    def shape_ties(self) -> tuple[ShapeTie, ...]:
        """The shape agreements the body's `load_like` calls imply, less the independent ones (read once)."""
        ties = self._shape_ties
        if ties is None:
            implied = implied_shape_ties(self.fn, [p.name for p in self.params])
            ties = self._shape_ties = independent_ties(self.name, self.params, implied, self.independent_shapes)
        return ties

    @property
    def asm(self) -> KernelAsm:
        """The compiled stages (`asm["ptx"]`, ...) of the kernel's one declared `tile.specialize(...)`."""
        return self.inspect()

    def inspect(self, *args: Any, arch: str | None = None) -> KernelAsm:
        """The compiled stages for one specialization: launch values or `tile.spec(...)`s (none: the declared one)."""
        from safekernels.asm import tile_asm

        return tile_asm(self, args, arch)

    def _check_call(self, args: tuple[Any, ...]) -> LaunchPlan:
        """Every static check of a call (the first with these specs); the plan for the specs."""
        if len(args) != len(self.params):
            names = ", ".join(p.name for p in self.params)
            raise TypeError(f"{self.name}() takes {len(self.params)} arguments ({names}), got {len(args)}")
        specs = [self._static_spec(p, a) for p, a in zip(self.params, args, strict=True)]
        grid = check_launch_shapes(self.name, self.params, specs, self.shape_ties)
        return LaunchPlan(self, args, grid)

    def _bind(self, plan: LaunchPlan, args: tuple[Any, ...]) -> tuple[Any, ...]:
        """Move the arguments (all checked alive first): the launch's own values, in parameter order."""
        name = self.name
        if not plan.moves_fast or _borrows_pending():
            return self._bind_in_order(plan.kinds, args)
        site = call_site(name, 2)  # 0: here, 1: __call__, 2: the caller of the launch
        bound = list(args)
        for i, cast in plan.casts:  # before any move: a scalar that does not fit its dtype moves nothing
            bound[i] = cast(args[i])
        loans = False
        for i, is_handle in plan.moving:  # shared values need no check: they are never moved
            arg = args[i]
            if arg._moved is not None:
                self._refuse_moved(plan, args, arg, site)
            if is_handle:  # the launch's own handle to the storage (same key, no loans)
                state = arg.__dict__.copy()
                if "_lent" in state:
                    del state["_lent"]
                    loans = True
                successor = object.__new__(type(arg))
                successor.__dict__ = state
                bound[i] = successor
            arg._moved = site
        if loans:
            for i, is_handle in plan.moving:
                if is_handle:
                    args[i]._end_loans()
        return tuple(bound)

    def _refuse_moved(self, plan: LaunchPlan, args: tuple[Any, ...], arg: Any, site: Any) -> None:
        """`arg` of a call being bound was moved: raise `UseAfterMoveError`, with nothing moved.

        Moved by this call (`site`): the same value given twice, "moved into `add`" by its first position.
        Moved before: the earlier moves of this call are undone first, so a refused launch moves nothing."""
        if arg._moved is not site:
            for j, _ in plan.moving:
                if args[j]._moved is site:
                    args[j]._moved = None
        arg._check_alive(self.name)

    def _bind_in_order(self, kinds: tuple[int, ...], args: tuple[Any, ...]) -> tuple[Any, ...]:
        """The general binding (a DeviceBuffer argument, or pending SIMT borrows): every argument checked
        alive, then E0505 for each, then the moves one by one with their own checks."""
        name = self.name
        for kind, arg in zip(kinds, args, strict=True):
            if kind != SCALAR and arg._moved is not None:
                arg._check_alive(name)
        for kind, arg in zip(kinds, args, strict=True):
            if kind == BUFFER:
                arg._check_movable(name)
            elif kind == HANDLE:
                arg._ensure_unborrowed(name)
        scalars = {
            i: param.cast(arg) if param.cast is not None else arg
            for i, (kind, param, arg) in enumerate(zip(kinds, self.params, args, strict=True))
            if kind == SCALAR
        }  # converted before any move: a scalar that does not fit its dtype moves nothing
        bound: list[Any] = []
        for i, (kind, arg) in enumerate(zip(kinds, args, strict=True)):
            if kind in (OP, SHARED_OP):
                arg._mark_moved(self.name)  # raises UseAfterMoveError for a moved value or a repeat
                bound.append(arg)
            elif kind == SCALAR:
                bound.append(scalars[i])
            else:
                bound.append(arg._take(self.name))  # a fresh handle; the caller's is invalidated
        return tuple(bound)

    # -- the execution ---------------------------------------------------------------------------------------
    def _launch(self, plan: LaunchPlan, stream: Stream, values: tuple[Any, ...]) -> None:
        """Run with `values` that match `plan` (checked when the plan was made): only per-value checks."""
        if stream.device is not plan.device or (self._cpu_via_execute and not plan.on_gpu):
            self._execute(stream, list(values))  # the full checks name the argument on another device
            return
        if plan.on_gpu:
            fast = plan.gpu_launch
            if fast and fast(stream.handle, values):  # it tests overlaps and alignment itself
                return
            from safekernels.tile.gpu_launch import build_fast_launch, launch_tile_on_gpu, synced_launch

            assert plan.grid is not None
            self._check_overlap(list(values))
            loaded = launch_tile_on_gpu(self, values, plan.grid, stream)
            if fast is None:
                built = build_fast_launch(self, loaded, values, plan.grid, plan.overlaps)
                plan.gpu_sync = synced_launch(built) if built is not None else False
                plan.gpu_launch = built or False
            return
        for i, j in plan.overlaps:
            a, b = values[i]._buffer, values[j]._buffer
            if a.nbytes and b.nbytes and a.ptr < b.ptr + b.nbytes and b.ptr < a.ptr + a.nbytes:
                self._check_overlap(list(values))  # raises, naming both parameters
        from safekernels.cpu.tile_executor import run_tile_kernel
        from safekernels.runtime.capture import cpu_launch

        # runs now, or is recorded while `DeviceOp.graph_on` captures a chain (runtime.capture)
        cpu_launch(run_tile_kernel, self.name, self.fn, self.params, values, plan.grid, self.num_warps)

    def _launch_values(self, stream: Stream, values: tuple[Any, ...]) -> None:
        """Run with the values a chain produced: their plan when one was checked, else the full checks."""
        if not any(isinstance(v, DeviceBuffer) for v in values):
            key = launch_key(values)
            plan = self._plans.get(key) if key is not None else None
            if plan is not None and plan.direct:
                self._launch(plan, stream, values)
                return
            if key is not None and len(values) == len(self.params):
                checked = self._execute(stream, list(values))
                self._plans[key] = LaunchPlan(self, values, checked)
                return
        self._execute(stream, list(values))

    # -- checks ---------------------------------------------------------------------------------------------
    def _static_spec(self, param: TileParam, arg: Any) -> TensorSpec | None:
        """Type-check `arg` for `param` now; its spec when known."""
        if param.kind == "scalar":
            if not isinstance(arg, int | float | np.generic):
                raise TypeError(
                    f"{self.name}: parameter `{param.name}` is a scalar, got {type(arg).__name__}"
                )
            return None
        if isinstance(arg, DeviceOp):
            arg._check_alive(self.name)
            meta = arg.meta
            if not isinstance(meta, TensorSpec):
                return None
            self._check_kind(param, meta)
            return meta
        if isinstance(arg, DeviceBuffer):
            arg._check_alive(self.name)
            if param.kind == "partition":
                raise TypeError(
                    f"{self.name}: parameter `{param.name}` is a Partition (an exclusive output tile): pass "
                    "buf.partition(tile_shape), not a whole DeviceBuffer"
                )
            return TensorSpec((arg.length,), arg.dtype)
        arg_kind = (
            "partition" if isinstance(arg, Partition) else "tensor" if isinstance(arg, Tensor) else None
        )
        if arg_kind is None:
            raise TypeError(
                f"{self.name}: parameter `{param.name}` takes a {param.kind.capitalize()} "
                "(or a DeviceOp of one), "
                f"got {type(arg).__name__}"
            )
        arg._check_alive(self.name)
        spec: TensorSpec = arg.spec()
        self._check_kind(param, spec)
        return spec

    def _check_kind(self, param: TileParam, spec: TensorSpec) -> None:
        is_partition = spec.tile_shape is not None
        if param.kind == "partition" and not is_partition:
            raise TypeError(
                f"{self.name}: parameter `{param.name}` is a Partition (an exclusive output tile): pass "
                "tensor.partition(tile_shape), not a whole Tensor"
            )
        if param.kind == "atomic" and (is_partition or spec.shared):
            raise BorrowError(
                f"{self.name}: parameter `{param.name}` is an AtomicTensor (updated by every tile block): pass "
                "an exclusively owned Tensor, not a Partition or shared storage"
            )
        if param.kind == "tensor" and is_partition:
            raise TypeError(
                f"{self.name}: parameter `{param.name}` is a shared Tensor input: pass a Tensor "
                "(unpartition a "
                "Partition first)"
            )
        if param.kind == "partition" and spec.shared:
            raise BorrowError(
                f"{self.name}: parameter `{param.name}`: Cannot create mutable partition from "
                "shared tensor storage."
            )

    def _execute(self, stream: Stream, values: list[Any]) -> Shape:
        """Check `values` in full against the parameters and `stream`, then run; returns the grid.

        The path of a launch without a matching plan (and of refused ones: its errors are the messages)."""
        # a DeviceBuffer argument runs as the 1-D tensor over a private handle to its memory: the handle the
        # launch hands back stays the caller's to move, and a recorded launch (graph capture) keeps its own
        values = [
            Tensor(copy.copy(v), (v.length,)) if isinstance(v, DeviceBuffer) and p.kind in ("tensor", "atomic") else v
            for p, v in zip(self.params, values, strict=True)
        ]
        specs: list[TensorSpec | None] = []
        for param, value in zip(self.params, values, strict=True):
            if param.kind == "scalar":
                specs.append(None)
                continue
            expected = Partition if param.kind == "partition" else Tensor
            if not isinstance(value, expected):
                raise TypeError(
                    f"{self.name}: parameter `{param.name}` takes a {expected.__name__}, "
                    "the DeviceOp argument "
                    f"produced {type(value).__name__}"
                )
            spec = value.spec()
            self._check_kind(param, spec)
            if value.device is not stream.device:
                from safekernels.runtime.placement import cross_device_error

                raise cross_device_error(self.name, param.name, value, value.device, stream.device)
            specs.append(spec)
        grid = check_launch_shapes(self.name, self.params, specs, self.shape_ties)
        assert grid is not None
        self._check_overlap(values)
        if stream.device.is_gpu:
            from safekernels.tile.gpu_launch import launch_tile_on_gpu

            launch_tile_on_gpu(self, values, grid, stream)
            return grid
        from safekernels.cpu.tile_executor import run_tile_kernel
        from safekernels.runtime.capture import cpu_launch

        cpu_launch(run_tile_kernel, self.name, self.fn, self.params, values, grid, self.num_warps)
        return grid

    def _check_overlap(self, values: list[Any]) -> None:
        """An output partition must not share memory with any other argument (runtime twin of E0502/E0499)."""
        for i, (param, value) in enumerate(zip(self.params, values, strict=True)):
            if param.kind not in ("partition", "atomic"):
                continue
            for j, (other_param, other) in enumerate(zip(self.params, values, strict=True)):
                if j != i and other_param.kind != "scalar" and value.buffer.overlaps(other.buffer):
                    raise AliasingError(
                        f"{self.name}: cannot borrow `{param.name}` as mutable because it overlaps "
                        f"`{other_param.name}` in device memory"
                    )

    def __repr__(self) -> str:
        return f"<tile.kernel {self.name}({', '.join(p.name for p in self.params)})>"


class TileLaunchOp(DeviceOp[tuple[Any, ...]]):
    """The op of a launch whose values are the handles the call moved (a direct plan): it runs the plan's
    launch itself instead of a closure, and yields those handles.  It holds only the plan and the values
    (`label` and `device` are the plan's); the call makes it without running an `__init__`.

    `sync_on` of one such op whose plan has its generated GPU launcher (the eager `k(...).sync_on(stream)`)
    runs no user code, so it skips the chain machinery: the reentrancy guard is checked but not set, and no
    frame is pinned; the op's move, the launch (the same launcher, or the checked launch when it declines)
    and the stream's synchronize are those of `DeviceOp.sync_on`."""

    meta = None
    _yields_arguments = True
    _plan: LaunchPlan
    _bound: tuple[Any, ...]

    @property
    def _kernel(self) -> str | None:  # type: ignore[override]
        name: str = self._plan.kernel.name
        return name

    def __init__(self, plan: LaunchPlan, bound: tuple[Any, ...]) -> None:  # what `TileKernel.__call__` inlines
        self._plan = plan
        self._bound = bound

    @property
    def label(self) -> str:
        label: str = self._plan.kernel._label
        return label

    @label.setter
    def label(self, value: str) -> None:  # pragma: no cover - DeviceOp's attribute, never set on a launch
        raise AttributeError("the label of a tile launch is its kernel's")

    @property
    def device(self) -> Any:
        return self._plan.call_device

    @device.setter
    def device(self, value: Any) -> None:  # pragma: no cover - DeviceOp's attribute, never set on a launch
        raise AttributeError("the device of a tile launch is its arguments'")

    def _execute(self, stream: Stream) -> tuple[Any, ...]:
        plan = self._plan
        fast = plan.gpu_launch
        if not (fast and stream.device is plan.device and fast(stream.handle, self._bound)):
            plan.kernel._launch(plan, stream, self._bound)
        return self._bound

    def sync_on(self, stream: Stream) -> tuple[Any, ...]:
        plan = self._plan
        fast = plan.gpu_sync
        if not fast or type(stream) is not Stream or stream.device is not plan.device or executing_threads:
            return DeviceOp.sync_on(self, stream)  # the generic path (its checks, its errors)
        if self._moved is not None:
            self._check_alive("sync_on")
        frame: Any = _getframe(1)
        code = frame.f_code
        if code is not last_user_code[0]:
            if internal_files.get(code.co_filename) is not False:
                frame = user_frame_from(1)
                code = frame.f_code
            else:
                last_user_code[0] = code
        self._moved = new_site(MoveSite, (None, code, frame.f_lasti, "sync_on", 0))
        handle = stream.handle
        bound = self._bound
        if not fast(handle, bound):  # declined, nothing launched: the checked launch (or its error), then wait
            plan.kernel._launch(plan, stream, bound)
            stream.device.backend.synchronize(handle)
        return bound


register_chain_code(TileLaunchOp._execute.__code__)  # a chain's executions pass through it (runtime.ownership)


@overload
def kernel(fn: Callable[..., None], /) -> TileKernel: ...


@overload
def kernel(
    *, num_warps: int | None = None, fast_math: bool = False, independent_shapes: tuple[str, ...] = ()
) -> Callable[[Callable[..., None]], TileKernel]: ...


def kernel(
    fn: Callable[..., None] | None = None,
    /,
    *,
    num_warps: int | None = None,
    fast_math: bool = False,
    independent_shapes: tuple[str, ...] = (),
) -> TileKernel | Callable[[Callable[..., None]], TileKernel]:
    """Make `fn` a tile kernel: its body runs once per tile block (params: Partition, Tensor, scalars).

    `@tile.kernel(num_warps=N)` overrides the compiler's choice of threads per tile block (N warps).
    `@tile.kernel(fast_math=True)` lets the GPU code trade the last bits for speed, as nvcc's
    `--use_fast_math`: `a * b + c` may round once (a fused multiply-add) and `exp`/`exp2`/... flush results
    below 2^-126 to zero.  The CPU executor is unchanged (numpy's rounding).
    `@tile.kernel(independent_shapes=("x",))` lets `x` have a shape other than the one its
    `tile.load_like(x, z)` implies (`z`'s); loads past its edge read zeros.  Without it the launch refuses
    the disagreement with a `ShapeError`."""
    caller = sys._getframe(1)
    localns = dict(caller.f_locals) if caller.f_code.co_name != "<module>" else None

    def wrap(f: Callable[..., None]) -> TileKernel:
        return TileKernel(
            f, localns, num_warps=num_warps, fast_math=fast_math, independent_shapes=independent_shapes
        )

    return wrap(fn) if fn is not None else wrap
