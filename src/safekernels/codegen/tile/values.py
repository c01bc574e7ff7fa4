"""How a tile value exists while the lowering runs: in registers, in shared memory, or as a formula.

- `RegTile`: one LLVM value per slot of a `layout` (`codegen.tile.layout`).
- `SmemTile`: the tile sits in shared memory at `base` with element `strides` (a transpose or a broadcast is
  only a change of strides).
- `FnTile`: a formula of the element coordinates (`iota`, `full`, scalars, and elementwise ops of those), so a
  mask like `iota(BN) < n` costs a compare per element and no memory.
- `Scalar`: a value every thread holds (an index, a scalar parameter, a whole-tile reduction).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from llvmlite import ir

from safekernels.codegen.tile.layout import Layout
from safekernels.tile.ops import TileType


@dataclass
class RegTile:
    type: TileType
    layout: Layout
    vals: list[ir.Value]


@dataclass
class SmemTile:
    type: TileType
    base: ir.Value  # i8 addrspace(3)*
    strides: tuple[int, ...]
    elem: ir.Type


@dataclass
class FnTile:
    type: TileType
    fn: Callable[[ir.IRBuilder, list[ir.Value]], ir.Value]


@dataclass
class Scalar:
    value: ir.Value
    dtype_name: str | None  # None: an index (i64)
    const: int | float | bool | None = None


Tile = RegTile | SmemTile | FnTile
Repr = Tile | Scalar
