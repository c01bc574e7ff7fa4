"""Host arguments -> the specialization a tile kernel is compiled for.

A launch specializes on each parameter's dtype, rank and (for partitions) tile shape, and on whether a tensor
allows full-width vector access: its base address is 16-byte aligned and its last extent is a multiple of
`16 / itemsize` elements.  Tensors that fail it still run, with element-wise masked accesses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from safekernels.codegen.tile.ir import ParamInfo
from safekernels.dtypes import DType, dtype_of


def param_info(
    name: str,
    kind: str,
    dtype: DType,
    shape: Sequence[int] = (),
    tile_shape: Sequence[int] | None = None,
    ptr: int = 0,
) -> ParamInfo:
    """One parameter's specialization (`ptr` is the device address; 0 counts as aligned)."""
    aligned = True
    if kind != "scalar":
        per16 = max(1, 16 // max(1, dtype.itemsize))
        aligned = ptr % 16 == 0 and (not shape or shape[-1] % per16 == 0)
    return ParamInfo(
        name, kind, dtype, len(shape), tuple(tile_shape) if tile_shape is not None else None, aligned
    )


def specialize(kernel: Any, values: Sequence[Any]) -> tuple[list[ParamInfo], int]:
    """ParamInfos and grid rank for `kernel` (a `TileKernel`) called with `values`.

    A value is a Tensor / Partition (anything with `.shape`, `.dtype`, optional `.tile_shape`, `.buffer.ptr`),
    a `TensorSpec`, or a scalar.
    """
    infos: list[ParamInfo] = []
    grid_rank = 0
    for param, value in zip(kernel.params, values, strict=True):
        if param.kind == "scalar":
            dt = param.dtype if param.dtype is not None else dtype_of("f32")
            infos.append(ParamInfo(param.name, "scalar", dt))
            continue
        shape = tuple(value.shape)
        tile_shape = getattr(value, "tile_shape", None) if param.kind == "partition" else None
        buf = getattr(value, "buffer", None)
        ptr = int(buf.ptr) if buf is not None else 0
        infos.append(param_info(param.name, param.kind, value.dtype, shape, tile_shape, ptr))
        if param.kind == "partition" and grid_rank == 0:
            grid_rank = len(shape)
    return infos, grid_rank
