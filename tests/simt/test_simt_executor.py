"""The SIMT CPU executor: example results, barriers, warp collectives, atomics, traps, 2-D indexing."""

from __future__ import annotations

import importlib.util
import math
import pathlib
from types import ModuleType

import numpy as np
import pytest

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.errors import KernelTrapError, UnsafeOperationError, UseAfterMoveError
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread, warp

DEV = sk.Device.cpu()
EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"sk_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run1d(kernel: simt.SimtKernel, n_threads: int, block: int, *args: object) -> None:
    prepared = kernel.prepare(simt.LaunchConfig1D.for_len(n_threads, block), DEV)
    kernel.launch(prepared, DEV.new_stream(), *args)


# -- the examples --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["vecadd_simt", "saxpy_simt"])
def test_example_main_passes(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SAFEKERNELS_DEVICE", "cpu")
    load_example(name).main()
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "PASSED" and len(out) == 2 and out[0].startswith(name.split("_")[0])


@pytest.mark.parametrize("n", [1, 255, 256, 257, 3001])
def test_vecadd_random(n: int) -> None:
    vecadd = load_example("vecadd_simt").vecadd
    rng = np.random.default_rng(n)
    a_host, b_host = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = sk.zeros(n, f32)
    run1d(vecadd, n, 256, sk.to_device(a_host), sk.to_device(b_host), c)
    np.testing.assert_array_equal(c.to_numpy(), a_host + b_host)


@pytest.mark.parametrize("n", [100, 513, 2049])
def test_saxpy_random(n: int) -> None:
    saxpy = load_example("saxpy_simt").saxpy
    rng = np.random.default_rng(n)
    x_host, y0_host = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    y = sk.to_device(np.full(n, -1, np.float32))
    run1d(saxpy, n, 256, -0.75, sk.to_device(x_host), sk.to_device(y0_host), y, n)
    result = y.to_numpy()
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, np.float32(-0.75) * x_host + y0_host)  # f32 arithmetic, exactly


# -- barriers ------------------------------------------------------------------------------------------------
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def block_sum(a: Slice[f32], sums: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    i = thread.index_1d().get()
    with simt.unsafe():
        s = simt.shared_array(f32, BLOCK)
        s[t] = a[i] if i < len(a) else f32(0.0)
    thread.sync_threads()
    stride = BLOCK // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                s[t] = s[t] + s[t + stride]
        thread.sync_threads()
        stride //= 2
    if t == 0:
        with simt.unsafe():
            total = s[0]
        with simt.unsafe():
            sums.get_unchecked_mut(thread.block_idx_x()).set(total)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def block_sum_no_barrier(a: Slice[f32], sums: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    i = thread.index_1d().get()
    with simt.unsafe():
        s = simt.shared_array(f32, BLOCK)
        s[t] = a[i] if i < len(a) else f32(0.0)
    stride = BLOCK // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                s[t] = s[t] + s[t + stride]
        stride //= 2
    if t == 0:
        with simt.unsafe():
            total = s[0]
        with simt.unsafe():
            sums.get_unchecked_mut(thread.block_idx_x()).set(total)


def _block_sums(kernel: simt.SimtKernel, host: np.ndarray) -> np.ndarray:
    blocks = -(-len(host) // BLOCK)
    sums = sk.zeros(blocks, f32)
    run1d(kernel, len(host), BLOCK, sk.to_device(host), sums)
    return sums.to_numpy()


def test_block_reduction_with_barrier_is_right_and_without_is_wrong() -> None:
    host = np.random.default_rng(7).integers(0, 10, 1000).astype(np.float32)  # exact sums in f32
    expected = np.array([host[k : k + BLOCK].sum() for k in range(0, len(host), BLOCK)], np.float32)
    np.testing.assert_array_equal(_block_sums(block_sum, host), expected)
    broken = _block_sums(block_sum_no_barrier, host)
    assert not np.array_equal(broken, expected)  # thread 0 read shared slots nobody had written yet


@simt.device
def block_total(s: simt.SharedArray[f32], t: int) -> f32:
    """A helper that syncs: the executor must suspend the caller inside it (`yield from`)."""
    stride = BLOCK // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                s[t] = s[t] + s[t + stride]
        thread.sync_threads()
        stride //= 2
    with simt.unsafe():
        return s[0]


@simt.kernel
@simt.launch_contract(block=BLOCK)
def block_sum_helper(a: Slice[f32], out: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    with simt.unsafe():
        s = simt.shared_array(f32, BLOCK)
        s[t] = a[i] if i < len(a) else f32(0.0)
    thread.sync_threads()
    total = block_total(s, t)
    if (o := out.get_mut(idx)) is not None:
        o.set(total)  # every thread writes its block's total


def test_barrier_inside_device_helper() -> None:
    host = np.arange(300, dtype=np.float32)
    out = sk.zeros(300, f32)
    run1d(block_sum_helper, 300, BLOCK, sk.to_device(host), out)
    expected = np.repeat([host[k : k + BLOCK].sum() for k in range(0, 300, BLOCK)], BLOCK)[:300]
    np.testing.assert_array_equal(out.to_numpy(), expected.astype(np.float32))


@simt.kernel
@simt.launch_contract(block=64)
def divergent_barrier(c: DisjointSlice[f32]) -> None:
    if thread.thread_idx_x() < 16:  # half a warp waits at the barrier, the other half at a warp reduction
        thread.sync_threads()
    else:
        warp.reduce_sum(f32(1.0))


def test_divergent_collectives_trap_instead_of_hanging() -> None:
    with pytest.raises(KernelTrapError, match=r"divergent_barrier: divergent collectives in block"):
        run1d(divergent_barrier, 64, 64, sk.zeros(1, f32))


# -- warps ---------------------------------------------------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=96)
def warp_sums(a: Slice[f32], out: DisjointSlice[f32], lanes: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = a[i] if i < len(a) else f32(0)
    offset = 16
    while offset > 0:
        v = v + warp.shfl_down(v, offset)
        offset //= 2
    total = warp.shfl_idx(v, 0)  # broadcast lane 0's sum
    if (o := out.get_mut(idx)) is not None:
        o.set(total - warp.reduce_sum(a[i]))  # zero when both reductions agree
    if (lane := lanes.get_mut(thread.index_1d())) is not None:
        lane.set(thread.lane_id() + warp.reduce_max(thread.lane_id()) * 100)


def test_warp_shuffle_reduction() -> None:
    n = 192
    host = np.random.default_rng(3).integers(0, 100, n).astype(np.float32)
    out, lanes = sk.zeros(n, f32), sk.zeros(n, i32)
    run1d(warp_sums, n, 96, sk.to_device(host), out, lanes)
    np.testing.assert_array_equal(out.to_numpy(), np.zeros(n, np.float32))
    np.testing.assert_array_equal(lanes.to_numpy(), (np.arange(n) % 96) % 32 + 3100)


@simt.kernel
@simt.launch_contract(block=32)
def shuffles(out_up: DisjointSlice[i32], out_xor: DisjointSlice[i32], out_min: DisjointSlice[i32]) -> None:
    lane = thread.lane_id()
    up = warp.shfl_up(lane * 10, 1)
    x = warp.shfl_xor(lane, 1)
    m = warp.reduce_min(lane + 5)
    if (o := out_up.get_mut(thread.index_1d())) is not None:
        o.set(up)
    if (o2 := out_xor.get_mut(thread.index_1d())) is not None:
        o2.set(x)
    if (o3 := out_min.get_mut(thread.index_1d())) is not None:
        o3.set(m)


def test_shuffle_up_xor_and_min() -> None:
    up, xor, mn = sk.zeros(32, i32), sk.zeros(32, i32), sk.zeros(32, i32)
    run1d(shuffles, 32, 32, up, xor, mn)
    lanes = np.arange(32)
    # lane 0 has no lane below it and keeps its own value
    np.testing.assert_array_equal(up.to_numpy(), np.where(lanes == 0, 0, (lanes - 1) * 10))
    np.testing.assert_array_equal(xor.to_numpy(), lanes ^ 1)
    np.testing.assert_array_equal(mn.to_numpy(), np.full(32, 5))


# -- atomics -------------------------------------------------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=64)
def histogram(values: Slice[u32], bins: AtomicSlice[u32], extremes: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(values):
        v = values[i]
        bins.fetch_add(v % len(bins), u32(1))
        extremes.fetch_max(0, i32(v))
        extremes.fetch_min(1, i32(v))


def test_atomics() -> None:
    host = np.random.default_rng(5).integers(0, 1000, 777).astype(np.uint32)
    bins = sk.zeros(10, u32)
    extremes = sk.to_device(np.array([-1, 10**6], np.int32))
    run1d(histogram, 777, 64, sk.to_device(host), bins, extremes)
    np.testing.assert_array_equal(bins.to_numpy(), np.bincount(host % 10, minlength=10))
    np.testing.assert_array_equal(extremes.to_numpy(), [host.max(), host.min()])


# -- traps and witnesses -------------------------------------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=32)
def reads_past_end(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i + 1])


def test_out_of_bounds_read_traps_with_kernel_index_and_length() -> None:
    with pytest.raises(KernelTrapError) as info:
        run1d(reads_past_end, 8, 32, sk.zeros(8, f32), sk.zeros(8, f32))
    message = str(info.value)
    assert message.startswith("reads_past_end: index out of bounds: the len is 8 but the index is 8")
    assert "reading `a`" in message and "thread (7, 0, 0) of block (0, 0, 0)" in message


@simt.kernel
@simt.launch_contract(block=32)
def get_mut_twice(c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    c.get_mut(idx)
    c.get_mut(idx)


def test_witness_is_single_use() -> None:
    with pytest.raises(UseAfterMoveError, match=r"second `get_mut` with the same witness"):
        run1d(get_mut_twice, 32, 32, sk.zeros(32, f32))


@simt.kernel
@simt.launch_contract(block=32)
def shared_without_unsafe(c: DisjointSlice[f32]) -> None:
    simt.shared_array(f32, 32)


def test_shared_array_needs_unsafe() -> None:
    with pytest.raises(UnsafeOperationError, match=r"`shared_array` requires an unsafe block \(E0133\)"):
        run1d(shared_without_unsafe, 32, 32, sk.zeros(1, f32))


def test_kernel_only_functions_refuse_the_host() -> None:
    with pytest.raises(RuntimeError, match=r"only be called inside a running @simt.kernel"):
        thread.index_1d()


# -- 2-D -----------------------------------------------------------------------------------------------------
@simt.kernel
@simt.launch_contract(domain=2, block=(8, 4))
def transpose_scale(a: Slice[f32], out: DisjointSlice[f32], rows: u32, cols: u32) -> None:
    # out (cols x rows) = 2 * a^T, a is rows x cols; x is the column axis of `out`
    r = thread.block_idx_y() * thread.block_dim_y() + thread.thread_idx_y()
    if r >= cols:
        return
    if (idx := thread.index_2d(rows)) is not None:
        c = idx.get() - r * rows
        if (o := out.get_mut(idx)) is not None:
            o.set(a[c * cols + r] * 2.0)


def test_index_2d() -> None:
    rows, cols = 13, 7
    host = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols)
    out = sk.zeros(rows * cols, f32)
    config = simt.LaunchConfig2D.for_shape(cols, rows, block=(8, 4))  # out is cols x rows
    prepared = transpose_scale.prepare(config, DEV)
    transpose_scale.launch(prepared, DEV.new_stream(), sk.to_device(host), out, rows, cols)
    np.testing.assert_array_equal(out.to_numpy().reshape(cols, rows), 2 * host.T)


# -- numerics ------------------------------------------------------------------------------------------------
@simt.kernel
@simt.launch_contract(block=32)
def numerics(a: Slice[f32], out: DisjointSlice[f32], ints: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    acc = f32(0.0)
    acc += a[i] * 0.1
    e = math.exp(acc)
    if (o := out.get_mut(idx)) is not None:
        o.set(e)  # math.exp of an f32 is f32 on both executors (the ulp check below would see f64 math)
    if (q := ints.get_mut(thread.index_1d())) is not None:
        q.set((i - 3) // 2 * 10 + (i - 3) % 2)


def test_f32_stays_f32_and_python_division() -> None:
    host = np.arange(8, dtype=np.float32)
    out, ints = sk.zeros(8, f32), sk.zeros(8, i32)
    run1d(numerics, 8, 32, sk.to_device(host), out, ints)
    result = out.to_numpy()
    np.testing.assert_array_max_ulp(result, np.exp(host * np.float32(0.1)).astype(np.float32), maxulp=1)
    k = np.arange(8) - 3
    np.testing.assert_array_equal(ints.to_numpy(), (k // 2) * 10 + k % 2)
