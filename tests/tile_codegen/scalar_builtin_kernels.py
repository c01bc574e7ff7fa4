"""Tile kernels for bool scalars in arithmetic, `min`/`max`/`abs` on scalars and `z.tile_shape` in a kernel body
(shared by the CPU/compile tests in tests/tile_codegen and the H200 test in tests/gpu_tile).

Each `run_*` launches one kernel on a device and hands back numpy arrays, so the same call judges the CPU
executor against Python and the GPU against the CPU executor.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np

from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

# -- bool scalars in arithmetic -----------------------------------------------------------------------------------


@tile.kernel
def clamp_steps(out: Annotated[Partition[f32], tile.Dims(8)], x: Tensor[f32]) -> None:
    """The engineer's program: `min(left, 2)` written as bool arithmetic, used as a `range` bound."""
    left = x.shape[0] // 8
    n = left - (left > 2) * (left - 2)
    acc = tile.zeros((8,), f32)
    for t in range(n):
        acc = acc + x.load((t,), (8,))
    out.store(acc)


@tile.kernel
def bool_arith(
    ints: Annotated[Partition[i32], tile.Dims(8)], floats: Annotated[Partition[f32], tile.Dims(8)], n: i32, s: f32
) -> None:
    b = tile.bid(0)
    k = (n > b) * n + (b >= 1) - (s > 0.5) * 3 + (n > 2) // 1 + ((b > 0) & (n > 1)) * 10 + int(b == 2) * 100
    ints.store(tile.full((8,), k, i32))
    floats.store(tile.full((8,), (s > b) * s + (b == 1) / 2 + ((b < 3) ^ (s < 0)), f32))


def bool_arith_expected(n: int, s: float, blocks: int) -> tuple[np.ndarray, np.ndarray]:
    """What Python computes for `bool_arith` (bools as ints)."""
    ks, fs = [], []
    for b in range(blocks):
        k = (n > b) * n + (b >= 1) - (s > 0.5) * 3 + (n > 2) // 1 + ((b > 0) & (n > 1)) * 10 + int(b == 2) * 100
        ks.append(k)
        fs.append(np.float32(np.float32((s > b) * np.float32(s)) + np.float32((b == 1) / 2)) + ((b < 3) ^ (s < 0)))
    return np.repeat(np.array(ks, np.int32), 8), np.repeat(np.array(fs, np.float32), 8)


def run_clamp_steps(device: Any, length: int) -> np.ndarray:
    s = device.new_stream()
    x = np.arange(length, dtype=np.float32)
    op = clamp_steps(tile.zeros((8,), f32, device=device).partition((8,)), tile.from_numpy(x, device=device))
    out, _ = op.sync_on(s)
    return out.unpartition().to_numpy(s)  # type: ignore[no-any-return]


def run_bool_arith(device: Any, n: int, s: float) -> tuple[np.ndarray, np.ndarray]:
    st = device.new_stream()
    ints = tile.zeros((32,), i32, device=device).partition((8,))
    floats = tile.zeros((32,), f32, device=device).partition((8,))
    a, b, *_ = bool_arith(ints, floats, np.int32(n), np.float32(s)).sync_on(st)
    return a.unpartition().to_numpy(st), b.unpartition().to_numpy(st)


# -- min / max / abs on scalars -----------------------------------------------------------------------------------


@tile.kernel
def int_extremes(out: Annotated[Partition[i32], tile.Dims(8)], x: Tensor[f32], n: i32) -> None:
    b = tile.bid(0)
    lo = min(b * 3, n, 7)  # an index and an i32: i32
    hi = max(b - 2, abs(b - 2) * 2, -n)
    steps = 0
    for _ in range(min(x.shape[0] // 8, max(b, 1))):  # index min/max as loop bounds
        steps = steps + 1
    out.store(tile.full((8,), lo * 1000 + hi * 10 + abs(n - 10) + min(5, 3, 4) * 100000 + steps * 1000000, i32))


def int_extremes_expected(n: int, length: int, blocks: int) -> np.ndarray:
    vals = []
    for b in range(blocks):
        lo, hi = min(b * 3, n, 7), max(b - 2, abs(b - 2) * 2, -n)
        steps = min(length // 8, max(b, 1))
        vals.append(lo * 1000 + hi * 10 + abs(n - 10) + min(5, 3, 4) * 100000 + steps * 1000000)
    return np.repeat(np.array(vals, np.int32), 8)


@tile.kernel
def float_extremes(
    mn: Partition[f32], mx: Partition[f32], mn3: Partition[f32], ab: Partition[f32], mixed: Partition[f32], s: f32,
    t: f32, n: i32,
) -> None:
    mn.store(tile.full((4,), min(s, t), f32))
    mx.store(tile.full((4,), max(s, t), f32))
    mn3.store(tile.full((4,), min(s, t, tile.bid(0) * 0.5), f32))
    ab.store(tile.full((4,), abs(s), f32))
    mixed.store(tile.full((4,), max(n, s) + min(2, t), f32))  # i32 with f32: f32


def float_extremes_expected(s: float, t: float, n: int) -> list[np.ndarray]:
    """Python's builtins on the same values (f32 scalars), one tile of 4 per block, 2 blocks."""
    s32, t32 = np.float32(s), np.float32(t)
    rows = [
        [min(s32, t32)] * 2,
        [max(s32, t32)] * 2,
        [min(s32, t32, b * 0.5) for b in range(2)],
        [abs(s32)] * 2,
        [np.float32(max(float(n), float(s32))) + np.float32(min(2.0, float(t32)))] * 2,
    ]
    return [np.repeat(np.array(r, np.float32), 4) for r in rows]


def run_int_extremes(device: Any, n: int, length: int) -> np.ndarray:
    st = device.new_stream()
    out = tile.zeros((32,), i32, device=device).partition((8,))
    x = tile.from_numpy(np.zeros(length, np.float32), device=device)
    got, *_ = int_extremes(out, x, np.int32(n)).sync_on(st)
    return got.unpartition().to_numpy(st)  # type: ignore[no-any-return]


def run_float_extremes(device: Any, s: float, t: float, n: int) -> list[np.ndarray]:
    st = device.new_stream()
    outs = [tile.zeros((8,), f32, device=device).partition((4,)) for _ in range(5)]
    got = float_extremes(*outs, np.float32(s), np.float32(t), np.int32(n)).sync_on(st)
    return [g.unpartition().to_numpy(st) for g in got[:5]]


# -- z.tile_shape ----------------------------------------------------------------------------------------------------


@tile.kernel
def copy_rows(z: Partition[f32], x: Tensor[f32]) -> None:
    """The engineer's program: a load the size of the output's tile."""
    rows = x.partition(z.tile_shape)
    z.store(x.load((tile.bid(0), 0), z.tile_shape) + rows.load((tile.bid(0), 0)) * z.tile_shape[1])


def run_copy_rows(device: Any, tile_rows: int) -> np.ndarray:
    st = device.new_stream()
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    z_op = tile.zeros((4, 8), f32, device=device).partition((tile_rows, 8))
    z, _ = copy_rows(z_op, tile.from_numpy(x, device=device)).sync_on(st)
    return z.unpartition().to_numpy(st)  # type: ignore[no-any-return]


# -- refused alike on both executors -------------------------------------------------------------------------------


@tile.kernel
def add_two_bools(out: Partition[i32], n: i32) -> None:
    out.store(tile.full((8,), (n > 1) + (n > 2), i32))


@tile.kernel
def negate_bool(out: Partition[i32], n: i32) -> None:
    out.store(tile.full((8,), -(n > 1), i32))


@tile.kernel
def invert_bool(out: Partition[i32], n: i32) -> None:
    out.store(tile.full((8,), ~(n > 1), i32))


@tile.kernel
def min_of_a_tile(out: Partition[i32], n: i32) -> None:
    out.store(min(out.load(), n))  # type: ignore[arg-type]


@tile.kernel
def min_of_a_bool(out: Partition[i32], n: i32) -> None:
    out.store(tile.full((8,), min(n > 1, n), i32))


@tile.kernel
def min_of_one(out: Partition[i32], n: i32) -> None:
    out.store(tile.full((8,), min(n), i32))  # type: ignore[call-overload]


@tile.kernel
def max_with_key(out: Partition[i32], n: i32) -> None:
    out.store(tile.full((8,), max(n, 2, key=abs), i32))


@tile.kernel
def tensor_tile_shape(out: Partition[i32], x: Tensor[i32]) -> None:
    out.store(x.load((0,), x.tile_shape))  # type: ignore[attr-defined]


#: refused kernel -> (SK code, a phrase of the message); each takes (out: Partition[i32] of 8, an i32 scalar or
#: tensor).
REFUSED: dict[str, tuple[Any, str, str]] = {
    "add_two_bools": (add_two_bools, "SK023", "on two bool scalars"),
    "negate_bool": (negate_bool, "SK023", "unary `-` of a bool scalar"),
    "invert_bool": (invert_bool, "SK023", "unary `~` of a bool scalar"),
    "min_of_a_tile": (min_of_a_tile, "SK023", "min() takes scalars"),
    "min_of_a_bool": (min_of_a_bool, "SK023", "min() of a bool"),
    "min_of_one": (min_of_one, "SK006", "two or more arguments"),
    "max_with_key": (max_with_key, "SK006", "no keyword arguments"),
    "tensor_tile_shape": (tensor_tile_shape, "SK004", "only a Partition has `.tile_shape`"),
}
