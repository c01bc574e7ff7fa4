"""The Tile CPU executor: runs a `@tile.kernel` body once per tile block, with numpy arrays as tiles.

The GPU runs all tile blocks of a grid concurrently, each as one logical thread of tile operations.  Because
every output tile is owned by exactly one block (that is what a `Partition` guarantees) and inputs are
read-only, the blocks cannot observe each other, so running them one after another in row-major grid order
gives exactly the GPU's result:

    for block in ndindex(grid):                   # grid = ceil-div of the output shape by its tile shape
        with running_block(kernel, grid, block):  # tile.bid / tile.num_blocks read this
            body(*views for this block)          # Tensor -> TensorView, Partition -> PartitionView(own tile)

Before the first run of each specialization the kernel goes through the tile compiler's front end
(`codegen.tile.frontend`, pure Python: no llvmlite, no GPU), target rules included (those of sm_90a, what a
launch on an H100/H200 compiles for: `codegen.tile.target_rules`), so the CPU executor accepts exactly the
programs the GPU compiler accepts and refuses the others with the same SK diagnostic (the parity rule,
tests/parity).

The body runs rewritten so that its run-time scalars (`n * 0.1`, `tile.bid(0) // 2`, `f32(n)`, `min(a, b)`) are
computed by the scalar ops the front end typed for them, as the GPU computes them (`cpu.tile_scalars`): numpy's
and Python's own promotion (f64 for an int times a float, unbounded ints) never decides a scalar's type.

Views read and write the tensors' `DeviceBuffer`s in place (`host_view()`), so results land in the buffers the
launch hands back.  Dtypes are kept: f16 tiles are float16 arrays, bf16 tiles float32 arrays rounded to bf16
after every op (the numeric rules are in `safekernels.tile.ops`).
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from safekernels.cpu.tile_scalars import ScalarPlan, plan_of, scalar_plan, typed_function
from safekernels.dtypes import dtype_of
from safekernels.errors import KernelTrapError
from safekernels.tile.context import BlockContext, running_block
from safekernels.tile.ops import Shape
from safekernels.tile.signature import TileParam
from safekernels.tile.tensor import Partition, Tensor
from safekernels.tile.views import AtomicView, PartitionView, TensorView

#: Per kernel function, the specializations the front end accepted (a rejection raises every time) and the scalar
#: plan of each; weak, so kernels made on the fly (tests, notebooks) do not pile up.
_VALIDATED: weakref.WeakKeyDictionary[Callable[..., Any], dict[tuple[Any, ...], ScalarPlan]] = (
    weakref.WeakKeyDictionary()
)


def validate_like_the_compiler(
    body: Callable[..., Any],
    params: Sequence[TileParam],
    values: Sequence[Any],
    grid: Shape,
    num_warps: int | None = None,
) -> ScalarPlan:
    """Type-check the kernel as the GPU compiler would for this specialization, with the target rules of the
    reference target (`codegen.tile.target_rules`: what a launch on an H100/H200 compiles for) and the kernel's
    `num_warps=` (raises `DiagnosticError`); the scalar plan the typed IR gives (`cpu.tile_scalars`)."""
    from safekernels.codegen.tile.frontend import build_tile_ir
    from safekernels.codegen.tile.specialize import param_info

    infos = []
    for param, value in zip(params, values, strict=True):
        if param.kind == "scalar":
            infos.append(param_info(param.name, "scalar", param.dtype or dtype_of("f32")))
        else:
            tile_shape = value.tile_shape if param.kind == "partition" else None
            infos.append(param_info(param.name, param.kind, value.dtype, value.shape, tile_shape))
    key = (len(grid), num_warps, *infos)
    seen = _VALIDATED.setdefault(body, {})
    plan = seen.get(key)
    if plan is None:
        plan = seen[key] = plan_of(build_tile_ir(body, infos, len(grid), num_warps=num_warps))
    return plan


def run_tile_kernel(
    name: str,
    body: Callable[..., Any],
    params: Sequence[TileParam],
    values: Sequence[Any],
    grid: Shape,
    num_warps: int | None = None,
) -> None:
    """Run `body` for every tile block of `grid` on host-memory arguments `values` (already checked)."""
    plan = validate_like_the_compiler(body, params, values, grid, num_warps)
    body = typed_function(body)  # scalars typed by the front end's IR, device print / assert as on the GPU
    fixed: list[Any] = []
    partitions: list[tuple[int, str, Any, Any, Shape]] = []
    for i, (param, value) in enumerate(zip(params, values, strict=True)):
        if param.kind == "scalar":
            fixed.append(value)
        elif param.kind == "tensor":
            assert isinstance(value, Tensor)
            fixed.append(TensorView(param.name, value.buffer.host_view().reshape(value.shape), value.dtype))
        elif param.kind == "atomic":
            assert isinstance(value, Tensor)
            fixed.append(AtomicView(param.name, value.buffer.host_view().reshape(value.shape), value.dtype))
        else:
            assert isinstance(value, Partition)
            storage = value.buffer.host_view().reshape(value.shape)
            partitions.append((i, param.name, storage, value.dtype, value.tile_shape))
            fixed.append(None)
    with warnings.catch_warnings(), scalar_plan(plan):
        # an integer scalar `//` or `%` by zero traps on the GPU; numpy scalars only warn, so make it an error
        warnings.filterwarnings("error", _INT_DIVISION_BY_ZERO, RuntimeWarning)
        # integer wrap-around of scalars (`count + 5` at a u32's maximum) and conversions that overflow to inf
        # or saturate are defined by the language (docs/numerics.md): no numpy warning
        warnings.filterwarnings("ignore", r"overflow encountered in (scalar \w+|cast)", RuntimeWarning)
        for block in np.ndindex(*grid):
            index = tuple(int(b) for b in block)
            args = list(fixed)
            for i, pname, storage, dtype, tile_shape in partitions:
                args[i] = PartitionView(pname, storage, dtype, tile_shape, own_index=index, writable=True)
            with running_block(BlockContext(name, grid, index)):
                try:
                    body(*args)
                except (ZeroDivisionError, RuntimeWarning) as exc:
                    raise KernelTrapError(
                        f"kernel `{name}`: integer division or remainder by zero in tile block {index} of grid "
                        f"{grid} (CPU executor; the GPU traps)"
                    ) from exc
                except ValueError as exc:
                    if str(exc) != "range() arg 3 must not be zero":
                        exc.add_note(f"in tile kernel `{name}`, tile block {index} of grid {grid} (CPU executor)")
                        raise
                    raise KernelTrapError(  # a run-time `range` step of 0: the GPU traps
                        f"kernel `{name}`: `range` step of zero in tile block {index} of grid {grid} (CPU "
                        "executor; the GPU traps)"
                    ) from exc
                except Exception as exc:
                    exc.add_note(f"in tile kernel `{name}`, tile block {index} of grid {grid} (CPU executor)")
                    raise


#: numpy's warning for a scalar integer `//` or `%` by zero (float `/` by zero stays inf, as on the GPU).
_INT_DIVISION_BY_ZERO = r"divide by zero encountered in scalar (floor_divide|remainder)"
