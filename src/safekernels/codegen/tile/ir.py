"""Typed tile IR: what the tile front end produces and the tile lowering consumes.

A kernel body becomes a flat list of `Op`s in SSA form (a `For` op nests its body).  Every value has a static
type: a `TileType` (compile-time shape + dtype, from `safekernels.tile.ops`) or a `ScalarType` (an index `int`
held as i64, or a scalar of a dtype).  Shapes are constants because the partition's tile shape, `Dims` and the
shapes written in the kernel are all known when a launch is specialized.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from safekernels.dtypes import DType
from safekernels.tile.ops import Shape, TileType

#: op kinds with no memory access and no barrier: scalar work and lazily built tiles.  They may run before a
#: GEMM main loop that is split between warpgroups (warpspec) or re-evaluated for another tile (persistent).
PURE_KINDS = frozenset(
    {"bid", "num_blocks", "full", "full_dyn", "zeros", "iota", "num_tiles", "tensor_dim", "const", "param",
     "to_index", "scalar", "scalar_cast"}
)


@dataclass(frozen=True)
class ScalarType:
    """A scalar: `dtype is None` means a Python int index (i64); otherwise a scalar of that dtype."""

    dtype: DType | None

    def __str__(self) -> str:
        return "int" if self.dtype is None else str(self.dtype)


INDEX = ScalarType(None)
Type = TileType | ScalarType


@dataclass(eq=False)
class Value:
    id: int
    type: Type
    name: str = ""

    def __repr__(self) -> str:
        return f"%{self.id}:{self.type}"

    @property
    def is_tile(self) -> bool:
        return isinstance(self.type, TileType)


@dataclass(eq=False)
class Op:
    """One operation.  `kind` names it; `args` are operand Values; `attrs` compile-time data."""

    kind: str
    args: list[Value]
    result: Value | None
    attrs: dict[str, Any] = field(default_factory=dict)
    line: int = 0


@dataclass(eq=False)
class Carried:
    """A loop-carried variable of a `For`: value before the loop, inside the body, at the body's end."""

    name: str
    init: Value
    phi: Value
    update: Value | None = None
    out: Value | None = None


@dataclass(eq=False)
class ForOp(Op):
    var: Value | None = None
    body: list[Op] = field(default_factory=list)
    carried: list[Carried] = field(default_factory=list)


@dataclass(frozen=True)
class ParamInfo:
    """A kernel parameter as specialized: kind, dtype, rank, and tile shape for a partition."""

    name: str
    kind: str  # partition | tensor | scalar
    dtype: DType
    rank: int = 0
    tile_shape: Shape | None = None
    aligned: bool = True  # base pointer 16-byte aligned and last extent a multiple of the vector width


@dataclass
class TileKernelIR:
    name: str
    params: list[ParamInfo]
    grid_rank: int
    body: list[Op]
    uses_matmul: bool = False
    path: str = ""
    #: the scalar ops each source expression produced, by (inlining path, `scalar_site` of the expression): what
    #: the CPU executor computes each run-time scalar expression with (`cpu.tile_scalars`), so both executors
    #: take a scalar's type from this IR
    scalar_sites: dict[tuple[tuple[Any, ...], Any], list[Op]] = field(default_factory=dict)
    #: per `for` statement (inlining path, `scalar_site`), the type of each value the loop carries, by name
    #: (`p[0]` for a tuple's leaf): a number bound before the loop is carried as a typed scalar
    loop_carried: dict[tuple[tuple[Any, ...], Any], dict[str, ScalarType]] = field(default_factory=dict)
    #: the `@tile.function` calls the front end inlined, as (inlining path, `scalar_site` of the call)
    helper_calls: set[tuple[tuple[Any, ...], Any]] = field(default_factory=set)
