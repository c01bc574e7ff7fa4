"""Second batch of fresh SIMT programs (docs/simt.md, docs/simt-compiler.md, docs/numerics.md), written from the
docs alone: 2-D/3-D launches with odd block shapes, grid-stride loops, shared-memory tiling with barriers, warp
shuffles of 64-bit values in partial warps, every atomic kind with `order=`/`scope=`, compare-exchange loops,
i8/u8/i16/f16/bf16 storage, `math.*` on each float dtype, helpers calling helpers (a shared array and a warp
collective inside a helper), `requires` contracts and `launch_unchecked`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from fresh_program import Program

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import bf16, f16, f32, f64, i8, i16, i32, i64, u8, u16, u32, u64
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread, warp

Config = simt.LaunchConfig1D | simt.LaunchConfig2D | simt.LaunchConfig3D
#: program name -> (kernel, config, make_args, outputs, unchecked): the launch, for runners other than `Program.run`
LAUNCHES: dict[str, tuple[Any, Config, Callable[[Any], tuple[Any, ...]], tuple[int, ...], bool]] = {}


def launch_program(
    name: str,
    kernel: Any,
    config: Config,
    make_args: Callable[[Any], tuple[Any, ...]],
    outputs: tuple[int, ...],
    reference: Callable[[], list[np.ndarray]],
    rtol: float = 0.0,
    unchecked: bool = False,
    folded: tuple[str, ...] = (),
) -> Program:
    """A SIMT launch of `config` (the safe path, or `launch_unchecked`); the buffers at `outputs` are compared."""
    LAUNCHES[name] = (kernel, config, make_args, outputs, unchecked)

    def run(device: sk.Device) -> list[np.ndarray]:
        stream = device.new_stream()
        args = make_args(stream)
        if unchecked:
            with simt.unsafe():
                kernel.launch_unchecked(config, stream, *args)
        else:
            kernel.launch(kernel.prepare(config, device), stream, *args)
        return [args[i].to_numpy(stream) for i in outputs]

    def assemble(arch: str) -> Any:
        from safekernels.codegen.pipeline import compile_simt_kernel

        target = "sm_90" if arch == "sm_90a" else arch
        return compile_simt_kernel(kernel, arch=target, use_cache=False, assume_requires=not unchecked)

    return Program(name, run, reference, assemble, rtol, folded)


def _dev(stream: Any, a: np.ndarray, dtype: Any = None) -> Any:
    return sk.to_device(a, stream) if dtype is None else sk.to_device(a, stream, dtype=dtype)


# 1. A 2-D launch with an odd block (7, 5): transpose a (13, 11) matrix; index_2d's None for the spare columns.
ROWS, COLS = 13, 11


@simt.kernel
@simt.launch_contract(block=(7, 5))
def transpose_2d(a: Slice[f32], out: DisjointSlice[f32], rows: u32, cols: u32) -> None:
    r = thread.block_idx_y() * thread.block_dim_y() + thread.thread_idx_y()
    c = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
    idx = thread.index_2d(cols)  # row * cols + col: the element this thread owns in `out` (cols x rows view)
    if idx is None or r >= rows:
        return
    flat = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[c * rows + r] + f32(flat) * f32(0.0))


# 2. A 3-D launch with block (3, 4, 5) over a (5, 7, 6) volume (z, y, x): a 6-point stencil with clamped edges.
VZ, VY, VX = 5, 7, 6


@simt.kernel
@simt.launch_contract(block=(3, 4, 5))
def stencil_3d(a: Slice[f64], out: DisjointSlice[f64]) -> None:
    x = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
    y = thread.block_idx_y() * thread.block_dim_y() + thread.thread_idx_y()
    z = thread.block_idx_z() * thread.block_dim_z() + thread.thread_idx_z()
    if x >= VX or y >= VY or z >= VZ:
        return
    centre = (z * VY + y) * VX + x
    total = a[centre] * 6.0
    total -= a[(z * VY + y) * VX + max(x - 1, 0)] + a[(z * VY + y) * VX + min(x + 1, VX - 1)]
    total -= a[(z * VY + max(y - 1, 0)) * VX + x] + a[(z * VY + min(y + 1, VY - 1)) * VX + x]
    total -= a[(max(z - 1, 0) * VY + y) * VX + x] + a[(min(z + 1, VZ - 1) * VY + y) * VX + x]
    with simt.unsafe():
        out.get_unchecked_mut(centre).set(total)


# 3. A grid-stride loop: 3 blocks of 64 threads cover 1000 elements, each thread several.
@simt.kernel
@simt.launch_contract(block=64, requires=("len(y) == len(x)",))
def saxpy_strided(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    start = thread.block_idx_x() * thread.block_dim_x() + thread.thread_idx_x()
    stride = thread.grid_dim_x() * thread.block_dim_x()
    n = len(x)
    for i in range(start, n, stride):
        with simt.unsafe():
            out.get_unchecked_mut(i).set(alpha * x[i] + y[i])


# 4. Shared-memory tiled matmul with barriers: (13 x 11) @ (11 x 9) in 4 x 4 tiles, a (4, 4) block.
M, K, NN = 13, 11, 9
TS = 4


@simt.kernel
@simt.launch_contract(block=(TS, TS))
def tiled_matmul(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    tx = thread.thread_idx_x()
    ty = thread.thread_idx_y()
    row = thread.block_idx_y() * TS + ty
    col = thread.block_idx_x() * TS + tx
    with simt.unsafe():
        sa = simt.shared_array(f32, TS * TS)
        sb = simt.shared_array(f32, TS * TS)
    acc = f32(0.0)
    for k0 in range(0, K, TS):
        with simt.unsafe():
            sa[ty * TS + tx] = a[row * K + k0 + tx] if row < M and k0 + tx < K else f32(0.0)
            sb[ty * TS + tx] = b[(k0 + ty) * NN + col] if col < NN and k0 + ty < K else f32(0.0)
        thread.sync_threads()
        for kk in range(TS):
            with simt.unsafe():
                acc += sa[ty * TS + kk] * sb[kk * TS + tx]
        thread.sync_threads()
    if row < M and col < NN:
        with simt.unsafe():
            c.get_unchecked_mut(row * NN + col).set(acc)


# 5. A block tree reduction over 96 threads (not a power of two) through shared memory, one sum per block.
RB = 96


@simt.kernel
@simt.launch_contract(block=RB)
def block_sums(a: Slice[i64], sums: DisjointSlice[i64]) -> None:
    t = thread.thread_idx_x()
    i = thread.block_idx_x() * RB + t
    with simt.unsafe():
        s = simt.shared_array(i64, RB)
        s[t] = a[i] if i < len(a) else i64(0)
    thread.sync_threads()
    step = 64
    while step > 0:
        if t < step and t + step < RB:
            with simt.unsafe():
                s[t] = s[t] + s[t + step]
        thread.sync_threads()
        step = step // 2
    if t == 0:
        with simt.unsafe():
            sums.get_unchecked_mut(thread.block_idx_x()).set(s[0])


# 6. 64-bit warp shuffles (i64, f64, u64) in a block of 50 threads: a full warp and a partial one of 18.
SB = 50


@simt.kernel
@simt.launch_contract(block=SB)
def shuffles_64(
    a: Slice[i64],
    b: Slice[f64],
    c: Slice[u64],
    iout: DisjointSlice[i64],
    fout: DisjointSlice[f64],
    uout: DisjointSlice[u64],
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    up = warp.shfl_up(a[i], 5)
    xo = warp.shfl_xor(b[i], 16)
    src = warp.shfl_idx(c[i], 20)
    lo = warp.reduce_min(a[i])
    hi = warp.reduce_max(b[i])
    with simt.unsafe():
        iout.get_unchecked_mut(i).set(up * 1000 + lo)
        fout.get_unchecked_mut(i).set(xo + hi * 0.5)
        uout.get_unchecked_mut(i).set(src)


# 7. Warp collectives in a 2-D block (16, 3) = 48 threads: lanes are counted x fastest, the second warp is partial.
@simt.kernel
@simt.launch_contract(block=(16, 3))
def warp_2d(a: Slice[i32], out: DisjointSlice[i32]) -> None:
    rank = thread.thread_idx_y() * thread.block_dim_x() + thread.thread_idx_x()
    g = thread.block_idx_x() * 48 + rank
    v = a[g]
    total = warp.reduce_sum(v)
    lane = thread.lane_id()
    down = warp.shfl_down(v, 1)
    with simt.unsafe():
        out.get_unchecked_mut(g).set(total * 10000 + down * 100 + i32(lane))


# 8. Every atomic kind, with orders and scopes: float add of exact values, int/uint/float min and max, exchange,
# and/or/xor, and the old values returned.
@simt.kernel
@simt.launch_contract(block=64)
def every_atomic(
    a: Slice[i32],
    fsum: AtomicSlice[f32],
    dsum: AtomicSlice[f64],
    ext: AtomicSlice[i64],
    umax: AtomicSlice[u32],
    fext: AtomicSlice[f32],
    bits: AtomicSlice[u64],
    last: AtomicSlice[i32],
    olds: DisjointSlice[i32],
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    v = a[i]
    fsum.fetch_add(0, f32(v) * f32(0.5), order="acq_rel", scope="device")
    dsum.fetch_add(0, f64(v) * 0.25, order="seq_cst")
    ext.fetch_min(0, i64(v), scope="block")
    ext.fetch_max(1, i64(v) * 3, order="release")
    umax.fetch_max(0, u32(v + 100))
    umax.fetch_min(1, u32(v + 100), order="acquire", scope="system")
    fext.fetch_max(0, f32(v) * f32(-1.5))
    fext.fetch_min(1, f32(v) * f32(-1.5))
    bits.fetch_or(0, u64(1) << u64(i % 64))
    bits.fetch_and(1, ~(u64(1) << u64(i % 64)))
    bits.fetch_xor(2, u64(v + 1000))
    old = last.exchange(0, 7)
    with simt.unsafe():
        olds.get_unchecked_mut(i).set(i32(old == 0 or old == 7))


# 9. Compare-exchange loops: an atomic multiply (i64, wrapping) and a float "max by magnitude" on f32 bits.
@simt.kernel
@simt.launch_contract(block=48)
def cas_loops(
    a: Slice[i64], b: Slice[f32], prod: AtomicSlice[i64], big: AtomicSlice[f32], tries: DisjointSlice[i32]
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = a[i]
    old = prod.fetch_add(0, i64(0))
    n = 0
    while True:
        seen = prod.compare_exchange(0, old, old * v)
        n += 1
        if seen == old:
            break
        old = seen
    w = b[i]
    cur = big.fetch_add(0, f32(0.0))
    while abs(w) > abs(cur):
        seen2 = big.compare_exchange(0, cur, w, order="acq_rel")
        if seen2 == cur:
            break
        cur = seen2
    if (o := tries.get_mut(idx)) is not None:
        o.set(i32(n > 0))


# 10. i8 / u8 / i16 / u16 storage: reads widen, arithmetic promotes, stores wrap.
@simt.kernel
@simt.launch_contract(block=32)
def small_ints(
    a: Slice[i8],
    b: Slice[u8],
    c: Slice[i16],
    o8: DisjointSlice[i8],
    ou8: DisjointSlice[u8],
    o16: DisjointSlice[i16],
    ou16: DisjointSlice[u16],
    wide: DisjointSlice[i32],
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    y = b[i]
    z = c[i]
    with simt.unsafe():
        o8.get_unchecked_mut(i).set(i8(x * 3 + 7))
        ou8.get_unchecked_mut(i).set(u8(y + u8(200)))
        o16.get_unchecked_mut(i).set(i16(z * 5 - x))
        ou16.get_unchecked_mut(i).set(u16(z) + u16(y))
        wide.get_unchecked_mut(i).set(i32(x) * i32(y) + i32(z // 7) + i32(x % -5))


# 11. f16 and bf16 storage: loads widen to f32, arithmetic in f32, stores round to nearest even; scalars too.
@simt.kernel
@simt.launch_contract(block=32)
def half_storage(
    h: Slice[f16],
    b: Slice[bf16],
    oh: DisjointSlice[f16],
    ob: DisjointSlice[bf16],
    of: DisjointSlice[f32],
    s: f16,
    t: bf16,
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(h):
        return
    x = h[i]
    y = b[i]
    with simt.unsafe():
        oh.get_unchecked_mut(i).set(x * y + s)
        ob.get_unchecked_mut(i).set(y * f32(3.0) - x + t)
        of.get_unchecked_mut(i).set(f16(x * f32(1.001)) + bf16(y * t))


# 12. math.* on each float dtype: f16 and bf16 (computed in f32), f32 and f64.
@simt.kernel
@simt.launch_contract(block=32)
def math_dtypes(
    h: Slice[f16],
    b: Slice[bf16],
    s: Slice[f32],
    d: Slice[f64],
    oh: DisjointSlice[f16],
    ob: DisjointSlice[bf16],
    os: DisjointSlice[f32],
    od: DisjointSlice[f64],
) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(h):
        return
    with simt.unsafe():
        oh.get_unchecked_mut(i).set(math.exp(h[i]) + math.sin(h[i]))
        ob.get_unchecked_mut(i).set(math.sqrt(abs(b[i])) + math.tanh(b[i]))
        os.get_unchecked_mut(i).set(math.log1p(abs(s[i])) + math.atan2(s[i], f32(0.5)) + math.cbrt(s[i]))
        od.get_unchecked_mut(i).set(math.hypot(d[i], 2.0) + math.erf(d[i]) + math.copysign(1.5, d[i]))


# 13. Helpers calling helpers: a helper with a shared array and a barrier, one with a warp reduction, one plain.
@simt.device
def square_plus(x: i32, k: i32) -> i32:
    return x * x + k  # type: ignore[return-value]


@simt.device
def warp_total(v: i32) -> i32:
    return warp.reduce_sum(square_plus(v, i32(1)))


@simt.device
def neighbour_sum(v: i32, t: i64) -> i32:
    with simt.unsafe():
        s = simt.shared_array(i32, 40)
        s[t] = v
    thread.sync_threads()
    with simt.unsafe():
        left = s[t - 1] if t > 0 else i32(0)
    return warp_total(v) + left  # type: ignore[no-any-return]


@simt.kernel
@simt.launch_contract(block=40)
def nested_helpers(a: Slice[i32], out: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    r = neighbour_sum(a[i], i64(t))
    if (o := out.get_mut(idx)) is not None:
        o.set(r)


# 14. `requires` relations over lengths and an unsigned scalar; the launch checks them.
@simt.kernel
@simt.launch_contract(block=32, requires=("len(a) >= n", "len(out) * 2 == len(a)", "n > 0"))
def pair_sums(a: Slice[i32], out: DisjointSlice[i32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[2 * i] + a[2 * i + 1] + i32(n))


# 15. launch_unchecked: a kernel with no contract at all.
@simt.kernel
def no_contract(a: Slice[u32], out: DisjointSlice[u32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((a[i] * u32(2654435761)) >> u32(7))


# 16. Chained comparisons, short-circuit and/or, conditional expressions, `**` with literal exponents.
@simt.kernel
@simt.launch_contract(block=32)
def control_forms(a: Slice[i32], f: Slice[f32], out: DisjointSlice[i64], fo: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    inside = -5 <= x < 5
    v = i64(x) ** 3 if inside else (i64(x) ** 2 if x > 0 and x % 2 == 0 else -1)
    w = f[i] ** 2 + f[i] ** 0.5 if f[i] > f32(0.0) else f32(-1.0)
    with simt.unsafe():
        out.get_unchecked_mut(i).set(v + i64(not inside) * 7 + i64(x != 0 or i == 0))
        fo.get_unchecked_mut(i).set(w)


# 17. u64 arithmetic: wrap-around, shifts, unsigned division and comparison near 2**64.
@simt.kernel
@simt.launch_contract(block=32)
def unsigned_64(a: Slice[u64], out: DisjointSlice[u64], k: u64) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    r = (x * k + u64(12345)) ^ (x >> u64(13))
    r = r // u64(7) + r % u64(1000) + (x << u64(i % 70))
    with simt.unsafe():
        out.get_unchecked_mut(i).set(r if x > k else ~r)


# 18. Tuple assignment (swap), annotated locals, augmented operators of every kind on an int and a float.
@simt.kernel
@simt.launch_contract(block=32)
def augmented(a: Slice[i32], out: DisjointSlice[i32], fo: DisjointSlice[f64]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    p: i32 = a[i]
    q: i32 = i32(i) - 7
    p, q = q, p
    p += 3  # type: ignore[assignment]
    p -= q  # type: ignore[assignment]
    p *= 2  # type: ignore[assignment]
    p //= 3  # type: ignore[assignment]
    p %= 97  # type: ignore[assignment]
    p <<= 2  # type: ignore[assignment]
    p >>= 1  # type: ignore[assignment]
    p &= 0xFFF  # type: ignore[assignment]
    p |= 1  # type: ignore[assignment]
    p ^= 5  # type: ignore[assignment]
    d = f64(a[i])
    d /= 3.0
    d **= 2
    d -= 0.5
    with simt.unsafe():
        out.get_unchecked_mut(i).set(p)
        fo.get_unchecked_mut(i).set(d)


# 19. A shared-memory histogram per block, a 3-D block (4, 2, 3) of 24 threads, then one atomic add per bin.
@simt.kernel
@simt.launch_contract(block=(4, 2, 3))
def block_histogram(a: Slice[i32], hist: AtomicSlice[i32]) -> None:
    t = (thread.thread_idx_z() * 2 + thread.thread_idx_y()) * 4 + thread.thread_idx_x()
    g = thread.block_idx_x() * 24 + t
    with simt.unsafe():
        bins = simt.shared_array(i32, 8)
        if t < 8:
            bins[t] = i32(0)
    thread.sync_threads()
    if t == 0:
        for j in range(24):
            if thread.block_idx_x() * 24 + j < len(a):
                v = a[thread.block_idx_x() * 24 + j]
                with simt.unsafe():
                    bins[v % 8] += 1
    thread.sync_threads()
    if t < 8 and g >= 0:
        with simt.unsafe():
            hist.fetch_add(t, bins[t])


# 20. Float edge values through casts, min/max and the isnan family.
@simt.kernel
@simt.launch_contract(block=32)
def float_edges(a: Slice[f32], out: DisjointSlice[i32], fo: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    flags = i32(math.isnan(x)) + i32(math.isinf(x)) * 2 + i32(math.isfinite(x)) * 4
    with simt.unsafe():
        out.get_unchecked_mut(i).set(flags)
        fo.get_unchecked_mut(i).set(
            max(x, f32(0.0)) + min(f32(1.0), x) + math.floor(x) * f32(0.0) if math.isfinite(x) else f32(-7.0)
        )


# 21. A grid-stride loop over a 2-D grid (3, 2) of (32, 2) blocks, with an early `continue`.
@simt.kernel
@simt.launch_contract(block=(32, 2))
def grid_stride_2d(a: Slice[i64], out: DisjointSlice[i64]) -> None:
    bid = thread.block_idx_y() * thread.grid_dim_x() + thread.block_idx_x()
    tid = thread.thread_idx_y() * thread.block_dim_x() + thread.thread_idx_x()
    nthreads = thread.block_dim_x() * thread.block_dim_y() * thread.grid_dim_x() * thread.grid_dim_y()
    for i in range(bid * 64 + tid, len(a), nthreads):
        if a[i] % 3 == 0:
            continue
        with simt.unsafe():
            out.get_unchecked_mut(i).set(a[i] * a[i] - i)


# 22. A bool buffer, int/bool/float casts and `bool()`.
@simt.kernel
@simt.launch_contract(block=32)
def bools(a: Slice[bool], f: Slice[f32], out: DisjointSlice[bool], counts: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    flag = a[i]
    nonzero = bool(f[i])
    with simt.unsafe():
        out.get_unchecked_mut(i).set((flag and not nonzero) or (nonzero and i % 2 == 0))
        counts.get_unchecked_mut(i).set(i32(flag) + i32(nonzero) * 2 + int(f[i] > f32(0.0)) * 4)


# 23. A prefix sum of one block with warp shuffles (Hillis-Steele in each warp) and a shared carry between warps,
# block 72 (two full warps and a partial one of 8).
PB = 72


@simt.kernel
@simt.launch_contract(block=PB)
def block_scan(a: Slice[i32], out: DisjointSlice[i32]) -> None:
    t = thread.thread_idx_x()
    lane = thread.lane_id()
    v = a[t]
    d = 1
    while d < 32:
        n = warp.shfl_up(v, d)
        if lane >= d:
            v += n  # type: ignore[assignment]
        d *= 2
    with simt.unsafe():
        tot = simt.shared_array(i32, 3)
        if lane == 31 or t == PB - 1:
            tot[t // 32] = v
    thread.sync_threads()
    carry = i32(0)
    for w in range(t // 32):
        with simt.unsafe():
            carry += tot[w]
    with simt.unsafe():
        out.get_unchecked_mut(t).set(v + carry)


# 24. print (both forms) and asserts, one in a helper, in a 2-D block (16, 3) with a partial second warp.
@simt.device
def checked_half(v: f32, limit: f32) -> f32:
    assert v <= limit, "value above the limit"
    return v * f32(0.5)  # type: ignore[no-any-return]


@simt.kernel
@simt.launch_contract(block=(16, 3))
def print_assert_2d(a: Slice[f32], out: DisjointSlice[f32], limit: f32) -> None:
    r = thread.thread_idx_y() * 16 + thread.thread_idx_x()
    g = thread.block_idx_x() * 48 + r
    if g == 0:
        print("rows", thread.block_dim_y(), "limit", limit)
        print("first %.2f of %d", a[0], len(a))
    assert g < len(a), "thread past the input"
    with simt.unsafe():
        out.get_unchecked_mut(g).set(checked_half(a[g], limit))


# 25. Exited lanes: every third thread returns before the warp collectives (docs: an exited lane is absent;
# a shuffle from it gives the caller's own value, reductions combine the lanes present).
@simt.kernel
@simt.launch_contract(block=64)
def exited_lanes(a: Slice[i32], out: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i % 3 == 0:
        return
    v = a[i]
    total = warp.reduce_sum(v)
    top = warp.reduce_max(v)
    down = warp.shfl_down(v, 1)
    flip = warp.shfl_xor(v, 1)
    if (o := out.get_mut(idx)) is not None:
        o.set(total * 1000000 + top * 10000 + down * 100 + flip)


# 26. A barrier after some threads exited (they no longer hold it back), through shared memory; block of 50.
@simt.kernel
@simt.launch_contract(block=50)
def barrier_after_exit(a: Slice[f32], out: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    if t >= 40:
        return
    with simt.unsafe():
        s = simt.shared_array(f32, 40)
        s[t] = a[t] * f32(2.0)
    thread.sync_threads()
    with simt.unsafe():
        out.get_unchecked_mut(t).set(s[39 - t] + s[t])


# 27. A warp reduction inside a branch only some lanes take (the lanes present are the branch's).
@simt.kernel
@simt.launch_contract(block=48)
def divergent_reduce(a: Slice[i64], out: DisjointSlice[i64]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    lane = thread.lane_id()
    v = a[i]
    r = i64(-1)
    if lane < 10:
        r = warp.reduce_sum(v)
    if (o := out.get_mut(idx)) is not None:
        o.set(r)


def _programs() -> list[Program]:
    rng = np.random.default_rng(2122)
    progs: list[Program] = []

    # 1
    mat = rng.uniform(-4, 4, ROWS * COLS).astype(np.float32)
    progs.append(
        launch_program(
            "simt2: 2-D launch, odd block (7, 5), index_2d transpose",
            transpose_2d,
            simt.LaunchConfig2D(grid=(2, 3), block=(7, 5)),
            lambda s: (_dev(s, mat), sk.zeros(ROWS * COLS, f32, s), ROWS, COLS),
            (1,),
            lambda: [mat.reshape(COLS, ROWS).T.reshape(-1).copy()],
        )
    )

    # 2
    vol = rng.uniform(-1, 1, VZ * VY * VX)

    def stencil_ref() -> list[np.ndarray]:
        v = vol.reshape(VZ, VY, VX)
        p = np.pad(v, 1, mode="edge")
        c = p[1:-1, 1:-1, 1:-1]
        out = c * 6.0
        out = out - (p[1:-1, 1:-1, :-2] + p[1:-1, 1:-1, 2:])
        out = out - (p[1:-1, :-2, 1:-1] + p[1:-1, 2:, 1:-1])
        out = out - (p[:-2, 1:-1, 1:-1] + p[2:, 1:-1, 1:-1])
        return [out.reshape(-1)]

    progs.append(
        launch_program(
            "simt2: 3-D launch, block (3, 4, 5), clamped stencil",
            stencil_3d,
            simt.LaunchConfig3D(grid=(2, 2, 1), block=(3, 4, 5)),
            lambda s: (_dev(s, vol), sk.zeros(VZ * VY * VX, f64, s)),
            (1,),
            stencil_ref,
            rtol=1e-15,
        )
    )

    # 3
    xs = rng.uniform(-1, 1, 1000).astype(np.float32)
    ys = rng.uniform(-1, 1, 1000).astype(np.float32)
    progs.append(
        launch_program(
            "simt2: grid-stride loop",
            saxpy_strided,
            simt.LaunchConfig1D(grid=3, block=64),
            lambda s: (_dev(s, xs), _dev(s, ys), sk.zeros(1000, f32, s), 2.5),
            (2,),
            lambda: [(np.float32(2.5) * xs + ys).astype(np.float32)],
        )
    )

    # 4
    am = rng.integers(-3, 4, M * K).astype(np.float32)
    bm = rng.integers(-3, 4, K * NN).astype(np.float32)
    progs.append(
        launch_program(
            "simt2: shared-memory tiled matmul with barriers",
            tiled_matmul,
            simt.LaunchConfig2D(grid=(3, 4), block=(TS, TS)),
            lambda s: (_dev(s, am), _dev(s, bm), sk.zeros(M * NN, f32, s)),
            (2,),
            lambda: [(am.reshape(M, K) @ bm.reshape(K, NN)).reshape(-1)],
        )
    )

    # 5
    big = rng.integers(-(10**12), 10**12, 250)
    progs.append(
        launch_program(
            "simt2: block tree reduction, 96 threads",
            block_sums,
            simt.LaunchConfig1D(grid=3, block=RB),
            lambda s: (_dev(s, big), sk.zeros(3, i64, s)),
            (1,),
            lambda: [np.array([big[k * RB : (k + 1) * RB].sum() for k in range(3)], np.int64)],
        )
    )

    # 6
    a64 = rng.integers(-(2**40), 2**40, SB)
    b64 = rng.uniform(-1e10, 1e10, SB)
    c64 = rng.integers(0, 2**63, SB, dtype=np.uint64) * np.uint64(2) + np.uint64(1)

    def shuffles_ref() -> list[np.ndarray]:
        io, fo, uo = [], [], []
        for i in range(SB):
            lanes = range(0, 32) if i < 32 else range(32, SB)
            lane = i % 32
            up = int(a64[i - 5]) if lane >= 5 and i - 5 in lanes else int(a64[i])
            xs_ = i ^ 16
            xo = float(b64[xs_]) if xs_ in lanes else float(b64[i])
            src = (i // 32) * 32 + 20
            uo.append(c64[src] if src in lanes else c64[i])
            lo = min(int(a64[j]) for j in lanes)
            hi = max(float(b64[j]) for j in lanes)
            io.append(up * 1000 + lo)
            fo.append(xo + hi * 0.5)
        return [np.array(io, np.int64), np.array(fo, np.float64), np.array(uo, np.uint64)]

    progs.append(
        launch_program(
            "simt2: 64-bit shuffles and reductions in a partial warp",
            shuffles_64,
            simt.LaunchConfig1D(grid=1, block=SB),
            lambda s: (
                _dev(s, a64),
                _dev(s, b64),
                _dev(s, c64),
                sk.zeros(SB, i64, s),
                sk.zeros(SB, f64, s),
                sk.zeros(SB, u64, s),
            ),
            (3, 4, 5),
            shuffles_ref,
        )
    )

    # 7
    w2 = rng.integers(-100, 100, 96).astype(np.int32)

    def warp2d_ref() -> list[np.ndarray]:
        out = []
        for g in range(96):
            rank = g % 48
            base = g - rank
            lanes = range(base, base + 32) if rank < 32 else range(base + 32, base + 48)
            total = sum(int(w2[j]) for j in lanes)
            down = int(w2[g + 1]) if g + 1 in lanes else int(w2[g])
            out.append(total * 10000 + down * 100 + rank % 32)
        return [np.array(out, np.int32)]

    progs.append(
        launch_program(
            "simt2: warp collectives in a 2-D block (16, 3)",
            warp_2d,
            simt.LaunchConfig2D(grid=(2, 1), block=(16, 3)),
            lambda s: (_dev(s, w2), sk.zeros(96, i32, s)),
            (1,),
            warp2d_ref,
        )
    )

    # 8
    av = rng.integers(-50, 50, 100).astype(np.int32)

    def atomic_ref() -> list[np.ndarray]:
        bits_or = 0
        bits_and = 2**64 - 1
        x = 0
        for i, v in enumerate(av):
            bits_or |= 1 << (i % 64)
            bits_and &= ~(1 << (i % 64)) & (2**64 - 1)
            x ^= (int(v) + 1000) % 2**64
        return [
            np.array([np.float32(av.astype(np.float64).sum() * 0.5)], np.float32),
            np.array([av.astype(np.float64).sum() * 0.25], np.float64),
            np.array([av.min(), av.max() * 3], np.int64),
            np.array([(av + 100).max(), (av + 100).min()], np.uint32),
            np.array([(av * -1.5).max(), (av * -1.5).min()], np.float32),
            np.array([bits_or, bits_and, x], np.uint64),
            np.array([7], np.int32),
            np.ones(100, np.int32),
        ]

    progs.append(
        launch_program(
            "simt2: every atomic kind with orders and scopes",
            every_atomic,
            simt.LaunchConfig1D.for_len(100, block=64),
            lambda s: (
                _dev(s, av),
                sk.zeros(1, f32, s),
                sk.zeros(1, f64, s),
                _dev(s, np.array([2**40, -(2**40)], np.int64)),
                _dev(s, np.array([0, 2**32 - 1], np.uint32)),
                _dev(s, np.array([-np.inf, np.inf], np.float32)),
                _dev(s, np.array([0, 2**64 - 1, 0], np.uint64)),
                sk.zeros(1, i32, s),
                sk.zeros(100, i32, s),
            ),
            (1, 2, 3, 4, 5, 6, 7, 8),
            atomic_ref,
        )
    )

    # 9
    factors = rng.choice(np.array([-3, -1, 1, 2, 3, 5, 7]), 48).astype(np.int64)
    mags = rng.uniform(-100, 100, 48).astype(np.float32)

    def cas_ref() -> list[np.ndarray]:
        p = 1
        for f_ in factors:
            p = (p * int(f_) + 2**63) % 2**64 - 2**63
        best = np.float32(0.0)
        for w in mags:
            if abs(w) > abs(best):
                best = w
        return [np.array([p], np.int64), np.array([best], np.float32), np.ones(48, np.int32)]

    progs.append(
        launch_program(
            "simt2: compare-exchange loops (i64 multiply, f32 max by magnitude)",
            cas_loops,
            simt.LaunchConfig1D(grid=1, block=48),
            lambda s: (
                _dev(s, factors),
                _dev(s, mags),
                _dev(s, np.array([1], np.int64)),
                sk.zeros(1, f32, s),
                sk.zeros(48, i32, s),
            ),
            (2, 3, 4),
            cas_ref,
        )
    )

    # 10
    s8 = rng.integers(-128, 128, 30).astype(np.int8)
    su8 = rng.integers(0, 256, 30).astype(np.uint8)
    s16 = rng.integers(-32768, 32768, 30).astype(np.int16)

    def small_ref() -> list[np.ndarray]:
        x, y, z = s8.astype(np.int64), su8.astype(np.int64), s16.astype(np.int64)
        o8 = (x * 3 + 7).astype(np.int8)
        ou8 = (y + 200).astype(np.uint8)
        o16 = (z * 5 - x).astype(np.int16)
        ou16 = (z.astype(np.uint16).astype(np.int64) + y).astype(np.uint16)
        wide = (x * y + z // 7 + x % -5).astype(np.int32)
        return [o8, ou8, o16, ou16, wide]

    progs.append(
        launch_program(
            "simt2: i8/u8/i16/u16 storage and wrap-around",
            small_ints,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (
                _dev(s, s8),
                _dev(s, su8),
                _dev(s, s16),
                sk.zeros(30, i8, s),
                sk.zeros(30, u8, s),
                sk.zeros(30, i16, s),
                sk.zeros(30, u16, s),
                sk.zeros(30, i32, s),
            ),
            (3, 4, 5, 6, 7),
            small_ref,
        )
    )

    # 11
    hv = rng.uniform(-8, 8, 30).astype(np.float16)
    bv = round_bf16(rng.uniform(-8, 8, 30).astype(np.float32))
    hs, bs = 0.3, 1.7

    def half_ref() -> list[np.ndarray]:
        x, y = hv.astype(np.float32), bv
        s16v, t16 = np.float32(np.float16(hs)), round_bf16(np.array([bs], np.float32))[0]
        oh = (x * y + s16v).astype(np.float16)
        ob = round_bf16((y * np.float32(3.0) - x + t16).astype(np.float32))
        of = np.float16(x * np.float32(1.001)).astype(np.float32) + round_bf16((y * t16).astype(np.float32))
        return [oh, ob, of.astype(np.float32)]

    progs.append(
        launch_program(
            "simt2: f16/bf16 storage, scalars and rounding casts",
            half_storage,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (
                _dev(s, hv),
                _dev(s, bv, bf16),
                sk.zeros(30, f16, s),
                sk.zeros(30, bf16, s),
                sk.zeros(30, f32, s),
                hs,
                bs,
            ),
            (2, 3, 4),
            half_ref,
        )
    )

    # 12
    mh = rng.uniform(-2, 2, 30).astype(np.float16)
    mb = round_bf16(rng.uniform(-2, 2, 30).astype(np.float32))
    ms = rng.uniform(-2, 2, 30).astype(np.float32)
    md = rng.uniform(-2, 2, 30)

    def math_ref() -> list[np.ndarray]:
        h = mh.astype(np.float64)
        oh = (np.exp(h).astype(np.float32) + np.sin(h).astype(np.float32)).astype(np.float16)
        b = mb.astype(np.float64)
        ob = round_bf16(np.sqrt(np.abs(b)).astype(np.float32) + np.tanh(b).astype(np.float32))
        x = ms.astype(np.float64)
        os_ = (
            np.log1p(np.abs(x)).astype(np.float32)
            + np.arctan2(x, 0.5).astype(np.float32)
            + np.cbrt(x).astype(np.float32)
        )
        od = np.hypot(md, 2.0) + np.array([math.erf(v) for v in md]) + np.copysign(1.5, md)
        return [oh, ob, os_.astype(np.float32), od]

    progs.append(
        launch_program(
            "simt2: math.* on f16, bf16, f32, f64",
            math_dtypes,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (
                _dev(s, mh),
                _dev(s, mb, bf16),
                _dev(s, ms),
                _dev(s, md),
                sk.zeros(30, f16, s),
                sk.zeros(30, bf16, s),
                sk.zeros(30, f32, s),
                sk.zeros(30, f64, s),
            ),
            (4, 5, 6, 7),
            math_ref,
            rtol=1e-2,
        )
    )

    # 13
    hv13 = rng.integers(-20, 20, 80).astype(np.int32)

    def nested_ref() -> list[np.ndarray]:
        out = []
        for g in range(80):
            t = g % 40
            base = g - t
            lanes = range(base, base + 32) if t < 32 else range(base + 32, base + 40)
            total = sum(int(hv13[j]) ** 2 + 1 for j in lanes)
            out.append(total + (int(hv13[g - 1]) if t > 0 else 0))
        return [np.array(out, np.int32)]

    progs.append(
        launch_program(
            "simt2: helpers calling helpers (shared array, barrier, warp reduction)",
            nested_helpers,
            simt.LaunchConfig1D(grid=2, block=40),
            lambda s: (_dev(s, hv13), sk.zeros(80, i32, s)),
            (1,),
            nested_ref,
        )
    )

    # 14
    pv = rng.integers(-1000, 1000, 70).astype(np.int32)
    progs.append(
        launch_program(
            "simt2: requires contract over lengths and a u32",
            pair_sums,
            simt.LaunchConfig1D.for_len(35, block=32),
            lambda s: (_dev(s, pv), sk.zeros(35, i32, s), 60),
            (1,),
            lambda: [(pv[0::2] + pv[1::2] + 60).astype(np.int32)],
        )
    )

    # 15
    uv = rng.integers(0, 2**32, 50, dtype=np.uint64).astype(np.uint32)
    progs.append(
        launch_program(
            "simt2: launch_unchecked of a kernel without a contract",
            no_contract,
            simt.LaunchConfig1D(grid=2, block=32),
            lambda s: (_dev(s, uv), sk.zeros(50, u32, s)),
            (1,),
            lambda: [((uv.astype(np.uint64) * 2654435761) % 2**32 >> 7).astype(np.uint32)],
            unchecked=True,
        )
    )

    # 16
    cv = rng.integers(-9, 10, 32).astype(np.int32)
    cf = rng.uniform(-3, 3, 32).astype(np.float32)

    def control_ref() -> list[np.ndarray]:
        out, fo = [], []
        for i in range(32):
            x = int(cv[i])
            inside = -5 <= x < 5
            v = x**3 if inside else (x**2 if x > 0 and x % 2 == 0 else -1)
            out.append(v + (not inside) * 7 + int(x != 0 or i == 0))
            f_ = cf[i]
            fo.append(np.float32(f_ * f_) + np.float32(np.sqrt(np.float64(f_))) if f_ > 0 else np.float32(-1))
        return [np.array(out, np.int64), np.array(fo, np.float32)]

    progs.append(
        launch_program(
            "simt2: chained comparisons, and/or, conditional expressions, **",
            control_forms,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (_dev(s, cv), _dev(s, cf), sk.zeros(32, i64, s), sk.zeros(32, f32, s)),
            (2, 3),
            control_ref,
            rtol=1e-6,
        )
    )

    # 17
    u64v = rng.integers(0, 2**64 - 1, 32, dtype=np.uint64)
    kk = 2**63 + 977

    def u64_ref() -> list[np.ndarray]:
        out = []
        for i, x in enumerate(u64v.tolist()):
            m = 2**64
            r = ((x * kk + 12345) % m) ^ (x >> 13)
            sh = i % 70
            r = (r // 7 + r % 1000 + ((x << sh) % m if sh < 64 else 0)) % m
            out.append(r if x > kk else (~r) % m)
        return [np.array(out, np.uint64)]

    progs.append(
        launch_program(
            "simt2: u64 wrap-around, shifts and division",
            unsigned_64,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (_dev(s, u64v), sk.zeros(32, u64, s), kk),
            (1,),
            u64_ref,
        )
    )

    # 18
    gv = rng.integers(-1000, 1000, 32).astype(np.int32)

    def aug_ref() -> list[np.ndarray]:
        out, fo = [], []
        for i in range(32):
            p, q = int(gv[i]), i - 7
            p, q = q, p
            p += 3
            p -= q
            p *= 2
            p //= 3
            p %= 97
            p <<= 2
            p >>= 1
            p &= 0xFFF
            p |= 1
            p ^= 5
            d = float(gv[i]) / 3.0
            d = d**2 - 0.5
            out.append(p)
            fo.append(d)
        return [np.array(out, np.int32), np.array(fo)]

    progs.append(
        launch_program(
            "simt2: tuple swap, annotated locals, every augmented operator",
            augmented,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (_dev(s, gv), sk.zeros(32, i32, s), sk.zeros(32, f64, s)),
            (1, 2),
            aug_ref,
            rtol=1e-15,
        )
    )

    # 19
    hv19 = rng.integers(-40, 40, 70).astype(np.int32)
    progs.append(
        launch_program(
            "simt2: shared histogram in a 3-D block (4, 2, 3), then atomics",
            block_histogram,
            simt.LaunchConfig3D(grid=(3, 1, 1), block=(4, 2, 3)),
            lambda s: (_dev(s, hv19), sk.zeros(8, i32, s)),
            (1,),
            lambda: [np.bincount(hv19 % 8, minlength=8).astype(np.int32)],
        )
    )

    # 20
    fe = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.5, 3e38, -1e-40, 7.0], np.float32)

    def edges_ref() -> list[np.ndarray]:
        flags = np.isnan(fe).astype(np.int32) + np.isinf(fe) * 2 + np.isfinite(fe) * 4
        fo = []
        for x in fe:
            if np.isfinite(x):
                mx = np.float32(0.0) if np.float32(0.0) > x else x  # Python's max: the first wins on ties
                mn = x if x < 1 else np.float32(1.0)
                fo.append(np.float32(np.float32(mx + mn) + np.float32(np.floor(x) * np.float32(0.0))))
            else:
                fo.append(np.float32(-7.0))
        return [flags.astype(np.int32), np.array(fo, np.float32)]

    progs.append(
        launch_program(
            "simt2: NaN/inf/-0.0 through isnan, min/max and floor",
            float_edges,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (_dev(s, fe), sk.zeros(10, i32, s), sk.zeros(10, f32, s)),
            (1, 2),
            edges_ref,
        )
    )

    # 21
    gs = rng.integers(-1000, 1000, 900)

    def gs_ref() -> list[np.ndarray]:
        out = np.zeros(900, np.int64)
        for i, v in enumerate(gs):
            if v % 3 != 0:
                out[i] = v * v - i
        return [out]

    progs.append(
        launch_program(
            "simt2: grid-stride loop over a 2-D grid with continue",
            grid_stride_2d,
            simt.LaunchConfig2D(grid=(3, 2), block=(32, 2)),
            lambda s: (_dev(s, gs), sk.zeros(900, i64, s)),
            (1,),
            gs_ref,
        )
    )

    # 22
    bl = rng.integers(0, 2, 32).astype(np.bool_)
    bf = rng.choice(np.array([0.0, -0.0, 1.0, -2.0, np.nan], np.float32), 32)

    def bools_ref() -> list[np.ndarray]:
        nz = bf != 0
        out = (bl & ~nz) | (nz & (np.arange(32) % 2 == 0))
        counts = bl.astype(np.int32) + nz * 2 + (bf > 0) * 4
        return [out, counts.astype(np.int32)]

    progs.append(
        launch_program(
            "simt2: bool buffers and truth values of floats",
            bools,
            simt.LaunchConfig1D(grid=1, block=32),
            lambda s: (_dev(s, bl), _dev(s, bf), sk.zeros(32, "bool", s), sk.zeros(32, i32, s)),
            (2, 3),
            bools_ref,
        )
    )

    # 23
    sv = rng.integers(-50, 50, PB).astype(np.int32)
    progs.append(
        launch_program(
            "simt2: block prefix sum with shfl_up in a partial warp and a shared carry",
            block_scan,
            simt.LaunchConfig1D(grid=1, block=PB),
            lambda s: (_dev(s, sv), sk.zeros(PB, i32, s)),
            (1,),
            lambda: [np.cumsum(sv).astype(np.int32)],
        )
    )
    # 24
    pa = rng.uniform(-4, 4, 96).astype(np.float32)
    progs.append(
        launch_program(
            "simt2: print and asserts (one in a helper) in a 2-D block",
            print_assert_2d,
            simt.LaunchConfig2D(grid=(2, 1), block=(16, 3)),
            lambda s: (_dev(s, pa), sk.zeros(96, f32, s), 4.0),
            (1,),
            lambda: [pa * np.float32(0.5)],
        )
    )
    # 25
    ev = rng.integers(-40, 40, 128).astype(np.int32)

    def exited_ref() -> list[np.ndarray]:
        out = np.zeros(128, np.int32)
        for i in range(128):
            if i % 3 == 0:
                continue
            base = i - i % 32
            present = [j for j in range(base, base + 32) if j % 3 != 0]
            total = sum(int(ev[j]) for j in present)
            top = max(int(ev[j]) for j in present)
            down = int(ev[i + 1]) if i + 1 in present else int(ev[i])
            flip = int(ev[i ^ 1]) if (i ^ 1) in present else int(ev[i])
            out[i] = total * 1000000 + top * 10000 + down * 100 + flip
        return [out]

    progs.append(
        launch_program(
            "simt2: warp collectives with exited lanes",
            exited_lanes,
            simt.LaunchConfig1D(grid=2, block=64),
            lambda s: (_dev(s, ev), sk.zeros(128, i32, s)),
            (1,),
            exited_ref,
        )
    )

    # 26
    bav = rng.uniform(-3, 3, 50).astype(np.float32)

    def barrier_ref() -> list[np.ndarray]:
        twice = bav[:40] * np.float32(2)
        out = np.zeros(50, np.float32)
        out[:40] = twice[::-1] + twice
        return [out]

    progs.append(
        launch_program(
            "simt2: a barrier after some threads exited",
            barrier_after_exit,
            simt.LaunchConfig1D(grid=1, block=50),
            lambda s: (_dev(s, bav), sk.zeros(50, f32, s)),
            (1,),
            barrier_ref,
        )
    )

    # 27
    dv = rng.integers(-(10**12), 10**12, 96)

    def divergent_ref() -> list[np.ndarray]:
        out = np.full(96, -1, np.int64)
        for i in range(96):
            block_base = i - i % 48
            rank = i % 48
            lane = rank % 32
            if lane < 10:
                warp_base = block_base + rank - lane
                out[i] = sum(int(dv[j]) for j in range(warp_base, warp_base + 10))
        return [out]

    progs.append(
        launch_program(
            "simt2: a warp reduction in a branch ten lanes take",
            divergent_reduce,
            simt.LaunchConfig1D(grid=2, block=48),
            lambda s: (_dev(s, dv), sk.zeros(96, i64, s)),
            (1,),
            divergent_ref,
        )
    )
    return progs


def round_bf16(x: np.ndarray) -> np.ndarray:
    """f32 values rounded to bf16 (nearest even), as f32; NaN stays NaN."""
    x = np.asarray(x, np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), x, out).astype(np.float32)


PROGRAMS = _programs()
