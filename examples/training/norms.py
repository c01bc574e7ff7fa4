"""RMSNorm and LayerNorm for training, in the tile language: forward kernels that save the per-row statistics,
and backward kernels for the input and the weight (and bias) gradients.

x and y are (rows, n) bf16, the weight w and bias b are (n,) bf16; statistics are f32, one per row.

    RMSNorm    y = x * rstd * w,               rstd = 1 / sqrt(mean(x^2) + eps)
    LayerNorm  y = (x - mean) * rstd * w + b,  rstd = 1 / sqrt(var(x) + eps)

Backward, with xh the normalized row and g = dy * w:

    RMSNorm    dx = rstd * (g - xh * mean(g * xh))
    LayerNorm  dx = rstd * (g - mean(g) - xh * mean(g * xh))
    both       dw = sum over rows of dy * xh      (LayerNorm: db = sum over rows of dy)

dx is row-local: one tile block per `dx_rows_per_block(n)` rows.  dw and db sum over every row, so they are two
kernels without atomics (the same split as torch's and Triton's LayerNorm backward): `*_bwd_partial` has a
grid of (rows / PARTIAL_ROWS, n / BC) tile blocks, each summing the columns of its BC-column strip over every
P-th STEP_ROWS-row step (P = the grid's row count) into one row of a small f32 matrix, and `norm_bwd_finish`
adds that matrix's rows (`norm_bwd_finish_pair`: LayerNorm's dw and db in one launch).  The partial kernel
reads x and dy a second time, which is the traffic this split costs.

What makes the backward kernels fast (measured on the H200, bench/norm_backward_variants.py):

- The per-row statistics are read with `tile.gather` at each element's row index, not as a (rows, 1) tile.
  Broadcasting a (rows, 1) load over a (rows, cols) tile is a layout change, which the compiler does through
  shared memory with two CTA barriers behind the statistic's own global load; in the partial kernels' loop
  that was a serialized load and two barriers per statistic per step.  The gather is one cached load per row a
  thread holds, no shared memory, no barrier.
- The partial kernels step over 16 rows at a time: LayerNorm's two (16, 256) f32 accumulators take 16
  registers a thread each (113 registers in all, two 8-warp tile blocks per SM; with 32-row steps, 156 and
  one).  Loading the next step's tiles one step early (carried by the loop) was measured and is slower
  (0.20 ms against 0.116 for LayerNorm's partial kernel at 16384 x 4096).
- The dx kernels take about 4096 elements per 4-warp tile block (`dx_rows_per_block`, `dx_warps`; one row at
  n = 4096): many small blocks, whose loads overlap each other's reductions (0.115 ms against 0.144 for two
  rows per 8-warp block).

`norm_kernels(n)` builds the kernels for one row length (the row is one tile, a compile-time shape); the module
exposes the n=256 set by name.  `torch_ops.py` wires them into torch's autograd.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import bf16, f32, i32
from safekernels.tile import Partition, Tensor

BC = 256  # columns per tile block of the partial-sum kernels
STEP_ROWS = 16  # rows per step of the partial-sum kernels
PARTIAL_ROWS = 512  # about this many rows per tile block of the partial-sum kernels
FINISH_ROWS = 8  # partial rows per step of the finishing kernel
DX_ELEMENTS = 4096  # about this many elements per tile block of the dx kernels

Array = npt.NDArray[Any]


def rows_per_block(n: int) -> int:
    """Rows per tile block of the forward kernels: about 8K elements per block (n = 4096: 2 rows)."""
    return max(1, 8192 // n)


def dx_rows_per_block(n: int) -> int:
    """Rows per tile block of the dx kernels: about DX_ELEMENTS elements per block (n = 4096: 1 row)."""
    return max(1, DX_ELEMENTS // n)


def dx_warps(n: int) -> int:
    """Warps of a dx tile block: about 32 elements of each row tile per thread (n = 4096: 4 warps), 1 to 8."""
    return max(1, min(8, dx_rows_per_block(n) * n // 1024))


def partial_rows(rows: int) -> int:
    """Rows of the partial-sum matrix for `rows` rows of x."""
    return -(-rows // PARTIAL_ROWS)


@dataclass(frozen=True)
class NormKernels:
    """The forward and backward kernels for rows of `n` elements."""

    n: int
    rb: int  # rows per tile block of the forward kernels
    rbx: int  # rows per tile block of the dx kernels
    rms_fwd: Any
    rms_bwd_dx: Any
    rms_bwd_partial: Any
    ln_fwd: Any
    ln_bwd_dx: Any
    ln_bwd_partial: Any
    finish: Any
    finish_pair: Any


@functools.cache
def norm_kernels(n: int) -> NormKernels:
    """Build (once per row length) the RMSNorm / LayerNorm kernels for rows of `n` elements."""
    if n <= 0:
        raise ValueError(f"row length must be positive, got {n}")
    rb = rows_per_block(n)
    rbx = dx_rows_per_block(n)
    inv_n = 1.0 / n

    @tile.kernel
    def rmsnorm_fwd(
        y: Annotated[Partition[bf16], tile.Dims(rb, n)],
        rstd: Annotated[Partition[f32], tile.Dims(rb, 1)],
        x: Tensor[bf16],
        w: Tensor[bf16],
        eps: f32,
    ) -> None:
        xt = tile.load_like(x, y).astype(f32)
        r = tile.rsqrt(tile.sum(xt * xt, axis=1, keepdims=True) * inv_n + eps)
        y.store((xt * r * w.load((0,), (n,)).astype(f32)).astype(bf16))
        rstd.store(r)

    @tile.function
    def dx_rows() -> Any:
        """The row index of every element of a dx block's (rbx, n) tile (for gathering the statistics)."""
        lanes = tile.broadcast_to(tile.reshape(tile.iota(rbx, i32), (rbx, 1)), (rbx, n))
        return lanes + tile.bid(0) * rbx

    @tile.function
    def step_rows() -> Any:
        """The row offset within a step of every element of a partial kernel's (STEP_ROWS, BC) tile."""
        return tile.broadcast_to(tile.reshape(tile.iota(STEP_ROWS, i32), (STEP_ROWS, 1)), (STEP_ROWS, BC))

    @tile.kernel(num_warps=dx_warps(n))
    def rmsnorm_bwd_dx(
        dx: Annotated[Partition[bf16], tile.Dims(rbx, n)],
        x: Tensor[bf16],
        dy: Tensor[bf16],
        w: Tensor[bf16],
        rstd: Tensor[f32],
    ) -> None:
        g = tile.load_like(dy, dx).astype(f32) * w.load((0,), (n,)).astype(f32)
        r = tile.gather(rstd, (dx_rows(), 0))
        xh = tile.load_like(x, dx).astype(f32) * r
        c = tile.sum(g * xh, axis=1, keepdims=True) * inv_n
        dx.store((r * (g - xh * c)).astype(bf16))

    @tile.kernel
    def rmsnorm_bwd_partial(
        dw_part: Annotated[Partition[f32], tile.Dims(1, BC)],
        x: Tensor[bf16],
        dy: Tensor[bf16],
        rstd: Tensor[f32],
    ) -> None:
        p = tile.bid(0)
        c = tile.bid(1)
        lanes = step_rows()
        acc = tile.zeros((STEP_ROWS, BC), f32)
        for step in range(p, (x.shape[0] + STEP_ROWS - 1) // STEP_ROWS, tile.num_blocks(0)):  # strided over rows
            g = dy.load((step, c), (STEP_ROWS, BC)).astype(f32)
            xh = x.load((step, c), (STEP_ROWS, BC)).astype(f32) * tile.gather(rstd, (lanes + step * STEP_ROWS, 0))
            acc = acc + g * xh
        dw_part.store(tile.sum(acc, axis=0, keepdims=True))

    @tile.kernel
    def layernorm_fwd(
        y: Annotated[Partition[bf16], tile.Dims(rb, n)],
        mean: Annotated[Partition[f32], tile.Dims(rb, 1)],
        rstd: Annotated[Partition[f32], tile.Dims(rb, 1)],
        x: Tensor[bf16],
        w: Tensor[bf16],
        b: Tensor[bf16],
        eps: f32,
    ) -> None:
        xt = tile.load_like(x, y).astype(f32)
        mu = tile.sum(xt, axis=1, keepdims=True) * inv_n
        xc = xt - mu
        r = tile.rsqrt(tile.sum(xc * xc, axis=1, keepdims=True) * inv_n + eps)
        wt = w.load((0,), (n,)).astype(f32)
        y.store((xc * r * wt + b.load((0,), (n,)).astype(f32)).astype(bf16))
        mean.store(mu)
        rstd.store(r)

    @tile.kernel(num_warps=dx_warps(n))
    def layernorm_bwd_dx(
        dx: Annotated[Partition[bf16], tile.Dims(rbx, n)],
        x: Tensor[bf16],
        dy: Tensor[bf16],
        w: Tensor[bf16],
        mean: Tensor[f32],
        rstd: Tensor[f32],
    ) -> None:
        rows = dx_rows()
        g = tile.load_like(dy, dx).astype(f32) * w.load((0,), (n,)).astype(f32)
        xt = tile.load_like(x, dx).astype(f32)
        r = tile.gather(rstd, (rows, 0))
        xh = (xt - tile.gather(mean, (rows, 0))) * r
        c1 = tile.sum(g, axis=1, keepdims=True) * inv_n
        c2 = tile.sum(g * xh, axis=1, keepdims=True) * inv_n
        dx.store((r * (g - c1 - xh * c2)).astype(bf16))

    @tile.kernel
    def layernorm_bwd_partial(
        dw_part: Annotated[Partition[f32], tile.Dims(1, BC)],
        db_part: Annotated[Partition[f32], tile.Dims(1, BC)],
        x: Tensor[bf16],
        dy: Tensor[bf16],
        mean: Tensor[f32],
        rstd: Tensor[f32],
    ) -> None:
        p = tile.bid(0)
        c = tile.bid(1)
        lanes = step_rows()
        acc_w = tile.zeros((STEP_ROWS, BC), f32)
        acc_b = tile.zeros((STEP_ROWS, BC), f32)
        for step in range(p, (x.shape[0] + STEP_ROWS - 1) // STEP_ROWS, tile.num_blocks(0)):  # strided over rows
            rows = lanes + step * STEP_ROWS
            g = dy.load((step, c), (STEP_ROWS, BC)).astype(f32)
            xt = x.load((step, c), (STEP_ROWS, BC)).astype(f32)
            xh = (xt - tile.gather(mean, (rows, 0))) * tile.gather(rstd, (rows, 0))
            acc_w = acc_w + g * xh
            acc_b = acc_b + g
        dw_part.store(tile.sum(acc_w, axis=0, keepdims=True))
        db_part.store(tile.sum(acc_b, axis=0, keepdims=True))

    @tile.kernel
    def norm_bwd_finish(
        dw: Annotated[Partition[bf16], tile.Dims(BC)],
        dw_part: Tensor[f32],
    ) -> None:
        c = tile.bid(0)
        acc = tile.zeros((FINISH_ROWS, BC), f32)
        for t in range((dw_part.shape[0] + FINISH_ROWS - 1) // FINISH_ROWS):
            acc = acc + dw_part.load((t, c), (FINISH_ROWS, BC))
        dw.store(tile.sum(acc, axis=0).astype(bf16))

    @tile.kernel
    def norm_bwd_finish_pair(
        dw: Annotated[Partition[bf16], tile.Dims(BC)],
        db: Annotated[Partition[bf16], tile.Dims(BC)],
        dw_part: Tensor[f32],
        db_part: Tensor[f32],
    ) -> None:
        """LayerNorm's dw and db from their partial sums in one launch (one operator call less per backward)."""
        c = tile.bid(0)
        acc_w = tile.zeros((FINISH_ROWS, BC), f32)
        acc_b = tile.zeros((FINISH_ROWS, BC), f32)
        for t in range((dw_part.shape[0] + FINISH_ROWS - 1) // FINISH_ROWS):
            acc_w = acc_w + dw_part.load((t, c), (FINISH_ROWS, BC))
            acc_b = acc_b + db_part.load((t, c), (FINISH_ROWS, BC))
        dw.store(tile.sum(acc_w, axis=0).astype(bf16))
        db.store(tile.sum(acc_b, axis=0).astype(bf16))

    return NormKernels(
        n,
        rb,
        rbx,
        rmsnorm_fwd,
        rmsnorm_bwd_dx,
        rmsnorm_bwd_partial,
        layernorm_fwd,
        layernorm_bwd_dx,
        layernorm_bwd_partial,
        norm_bwd_finish,
        norm_bwd_finish_pair,
    )


# The n=256 kernels by name (the parity suite finds module-level kernels).
_N256 = norm_kernels(256)
rmsnorm_fwd = _N256.rms_fwd
rmsnorm_bwd_dx = _N256.rms_bwd_dx
rmsnorm_bwd_partial = _N256.rms_bwd_partial
layernorm_fwd = _N256.ln_fwd
layernorm_bwd_dx = _N256.ln_bwd_dx
layernorm_bwd_partial = _N256.ln_bwd_partial
norm_bwd_finish = _N256.finish
norm_bwd_finish_pair = _N256.finish_pair


def _bf16(x: Array) -> Any:
    return tile.from_numpy(np.ascontiguousarray(x, np.float32), dtype=bf16)


def rmsnorm_forward(device: sk.Device, x: Array, w: Array, eps: float) -> tuple[Array, Array]:
    """(y, rstd) of RMSNorm over the rows of `x` on `device`."""
    rows, n = x.shape
    ks = norm_kernels(n)
    stream = device.new_stream()
    y = tile.zeros((rows, n), bf16).partition((ks.rb, n))
    rstd = tile.zeros((rows, 1), f32).partition((ks.rb, 1))
    y, rstd, *_ = ks.rms_fwd(y, rstd, _bf16(x), _bf16(w), eps).sync_on(stream)
    return y.unpartition().to_numpy(stream), rstd.unpartition().to_numpy(stream)


def _finish(ks: NormKernels, part: Any, n: int, stream: sk.Stream) -> Array:
    out = tile.zeros((n,), bf16).partition((BC,))
    out, _ = ks.finish(out, part).sync_on(stream)
    result: Array = out.unpartition().to_numpy(stream)
    return result


def rmsnorm_backward(device: sk.Device, x: Array, w: Array, rstd: Array, dy: Array) -> tuple[Array, Array]:
    """(dx, dw) of RMSNorm on `device`, from the forward's `rstd` ((rows, 1) f32)."""
    rows, n = x.shape
    ks = norm_kernels(n)
    stream = device.new_stream()
    xt, dyt, rt = _bf16(x).shared(), _bf16(dy).shared(), tile.from_numpy(rstd.astype(np.float32)).shared()
    dx = tile.zeros((rows, n), bf16).partition((ks.rbx, n))
    dx, *_ = ks.rms_bwd_dx(dx, xt, dyt, _bf16(w), rt).sync_on(stream)
    part = tile.zeros((partial_rows(rows), n), f32).partition((1, BC))
    part, *_ = ks.rms_bwd_partial(part, xt, dyt, rt).sync_on(stream)
    return dx.unpartition().to_numpy(stream), _finish(ks, part.unpartition(), n, stream)


def layernorm_forward(device: sk.Device, x: Array, w: Array, b: Array, eps: float) -> tuple[Array, Array, Array]:
    """(y, mean, rstd) of LayerNorm over the rows of `x` on `device`."""
    rows, n = x.shape
    ks = norm_kernels(n)
    stream = device.new_stream()
    y = tile.zeros((rows, n), bf16).partition((ks.rb, n))
    mean = tile.zeros((rows, 1), f32).partition((ks.rb, 1))
    rstd = tile.zeros((rows, 1), f32).partition((ks.rb, 1))
    y, mean, rstd, *_ = ks.ln_fwd(y, mean, rstd, _bf16(x), _bf16(w), _bf16(b), eps).sync_on(stream)
    return tuple(t.unpartition().to_numpy(stream) for t in (y, mean, rstd))


def layernorm_backward(
    device: sk.Device, x: Array, w: Array, mean: Array, rstd: Array, dy: Array
) -> tuple[Array, Array, Array]:
    """(dx, dw, db) of LayerNorm on `device`, from the forward's `mean` and `rstd` ((rows, 1) f32)."""
    rows, n = x.shape
    ks = norm_kernels(n)
    stream = device.new_stream()
    xt, dyt = _bf16(x).shared(), _bf16(dy).shared()
    mt, rt = (tile.from_numpy(a.astype(np.float32)).shared() for a in (mean, rstd))
    dx = tile.zeros((rows, n), bf16).partition((ks.rbx, n))
    dx, *_ = ks.ln_bwd_dx(dx, xt, dyt, _bf16(w), mt, rt).sync_on(stream)
    dw_part = tile.zeros((partial_rows(rows), n), f32).partition((1, BC))
    db_part = tile.zeros((partial_rows(rows), n), f32).partition((1, BC))
    dw_part, db_part, *_ = ks.ln_bwd_partial(dw_part, db_part, xt, dyt, mt, rt).sync_on(stream)
    dw = tile.zeros((n,), bf16).partition((BC,))
    db = tile.zeros((n,), bf16).partition((BC,))
    dw, db, *_ = ks.finish_pair(dw, db, dw_part.unpartition(), db_part.unpartition()).sync_on(stream)
    return dx.unpartition().to_numpy(stream), dw.unpartition().to_numpy(stream), db.unpartition().to_numpy(stream)


def rmsnorm_reference(x: Array, w: Array, dy: Array, eps: float) -> tuple[Array, Array, Array]:
    """float64 (y, dx, dw) of RMSNorm."""
    x, w, dy = (a.astype(np.float64) for a in (x, w, dy))
    r = 1.0 / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps)
    xh = x * r
    g = dy * w
    return xh * w, r * (g - xh * (g * xh).mean(axis=1, keepdims=True)), (dy * xh).sum(axis=0)


def layernorm_reference(x: Array, w: Array, b: Array, dy: Array, eps: float) -> tuple[Array, Array, Array, Array]:
    """float64 (y, dx, dw, db) of LayerNorm."""
    x, w, b, dy = (a.astype(np.float64) for a in (x, w, b, dy))
    xc = x - x.mean(axis=1, keepdims=True)
    r = 1.0 / np.sqrt((xc * xc).mean(axis=1, keepdims=True) + eps)
    xh = xc * r
    g = dy * w
    dx = r * (g - g.mean(axis=1, keepdims=True) - xh * (g * xh).mean(axis=1, keepdims=True))
    return xh * w + b, dx, (dy * xh).sum(axis=0), dy.sum(axis=0)


def random_inputs(rows: int, n: int, seed: int = 0) -> tuple[Array, Array, Array, Array]:
    """bf16-representable (x, w, b, dy) as float32 arrays."""
    rng = np.random.default_rng(seed)
    x, dy = rng.standard_normal((rows, n)), rng.standard_normal((rows, n))
    w, b = 1.0 + 0.5 * rng.standard_normal(n), 0.5 * rng.standard_normal(n)
    return tuple(sk.dtypes.bf16_to_f32(sk.dtypes.f32_to_bf16(a)) for a in (x, w, b, dy))  # type: ignore[return-value]


def main() -> None:
    rows, n, eps = 100, 256, 1e-5
    device = sk.Device.default()
    x, w, b, dy = random_inputs(rows, n)
    y, rstd = rmsnorm_forward(device, x, w, eps)
    dx, dw = rmsnorm_backward(device, x, w, rstd, dy)
    for got, want in zip((y, dx, dw), rmsnorm_reference(x, w, dy, eps), strict=True):
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2 * np.abs(want).max())
    print(f"training rmsnorm: {rows} x {n}, bf16, on {device!r}")
    y, mean, rstd = layernorm_forward(device, x, w, b, eps)
    dx, dw, db = layernorm_backward(device, x, w, mean, rstd, dy)
    for got, want in zip((y, dx, dw, db), layernorm_reference(x, w, b, dy, eps), strict=True):
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2 * np.abs(want).max())
    print(f"training layernorm: {rows} x {n}, bf16, on {device!r}")
    print("PASSED")


if __name__ == "__main__":
    main()
