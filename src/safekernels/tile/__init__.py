"""`safekernels.tile`: describe what one tile of data does (docs/tile.md, docs/reference.md).

    @tile.kernel
    def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
        z.store(tile.load_like(x, z) + tile.load_like(y, z))

    z = tile.zeros((1024,), f32).partition((128,))   # 8 tile blocks of 128
    z, x, y = add(z, tile.ones((1024,), f32), tile.ones((1024,), f32)).sync_on(stream)

Layout of this package (data flows down):
- `ops`: the op table (typing rule + CPU implementation per op; codegen adds lowerings);
- `tile_value`: the `Tile` value type, whose operators call the table;
- `views`, `context`: what parameters are inside a body, and which block is running;
- `tensor`, `host`: host `Tensor` / `Partition` and the lazy constructors;
- `signature`: parameters, `Dims`, the launch-time shape check; `kernel`: the decorator and the launch;
- `language`: the module functions kernels call (and `@tile.function` helpers).
The CPU executor that drives the blocks is `safekernels.cpu.tile_executor`.
"""

from typing import TYPE_CHECKING, Any

from safekernels.autotune.config import Config
from safekernels.errors import ShapeError
from safekernels.tile.kernel import TileKernel, kernel
from safekernels.tile.language import (
    TileFunction,
    arange,
    argmax,
    argmin,
    atomic_add,
    atomic_max,
    atomic_min,
    bid,
    broadcast_to,
    cos,
    cumsum,
    exp,
    exp2,
    from_numpy,
    full,
    function,
    gather,
    iota,
    load_like,
    log,
    matmul,
    max,
    maximum,
    min,
    minimum,
    num_blocks,
    ones,
    reshape,
    rsqrt,
    scan,
    scatter,
    sin,
    sqrt,
    sum,
    tanh,
    transpose,
    where,
    zeros,
)
from safekernels.tile.ops import OPS, OpSpec, TileType
from safekernels.tile.signature import Dims
from safekernels.tile.specializations import spec, specialize
from safekernels.tile.tensor import Partition, Tensor, TensorSpec
from safekernels.tile.tile_value import Tile
from safekernels.tile.views import AtomicTensor

__all__ = [
    "OPS",
    "AtomicTensor",
    "AutotunedTileKernel",
    "Config",
    "Dims",
    "OpSpec",
    "Partition",
    "ShapeError",
    "Tensor",
    "TensorSpec",
    "Tile",
    "TileFunction",
    "TileKernel",
    "TileType",
    "arange",
    "argmax",
    "argmin",
    "atomic_add",
    "atomic_max",
    "atomic_min",
    "autotune",
    "bid",
    "broadcast_to",
    "cos",
    "cumsum",
    "exp",
    "exp2",
    "from_numpy",
    "full",
    "function",
    "gather",
    "iota",
    "kernel",
    "load_like",
    "log",
    "matmul",
    "max",
    "maximum",
    "min",
    "minimum",
    "num_blocks",
    "ones",
    "reshape",
    "rsqrt",
    "scan",
    "scatter",
    "sin",
    "spec",
    "specialize",
    "sqrt",
    "sum",
    "tanh",
    "transpose",
    "where",
    "zeros",
]

if TYPE_CHECKING:
    from safekernels.autotune.tile_autotune import AutotunedTileKernel, autotune


def __getattr__(name: str) -> Any:
    # `tile.autotune` loads on first use: its module builds on `tile.kernel`, so importing it here would be
    # circular (and would cost every `from safekernels import tile`)
    if name in ("autotune", "AutotunedTileKernel"):
        from safekernels.autotune import tile_autotune

        return getattr(tile_autotune, name)
    raise AttributeError(f"module 'safekernels.tile' has no attribute {name!r}")
