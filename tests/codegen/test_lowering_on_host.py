"""What the SIMT lowering computes, checked without a GPU by running its LLVM IR on the host (`host_jit`).

The CPU executor and the GPU suite agree on the catalog kernels, but a CPU-only run never executed the
lowering's output: mutation testing of `codegen/lowering/function.py` showed a `udiv` for `sdiv`, a swapped
`select`, or a `for` loop whose step sign is ignored all passing every CPU test.  These tests JIT the emitted IR
for the host and compare, per dtype, with Python's semantics on the values where the choices differ: negative
operands of `//`, `%` and `>>`, unsigned values above 2**31, NaN in comparisons and in `min`/`max`, the sign of
conversions, loop steps of both signs, and traps (zero divisor, range step 0, index == len).
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from safekernels import codegen, simt
from safekernels.dtypes import bool_, f16, f32, f64, i32, i64, u32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "codegen"))
from conftest_helpers import load  # noqa: E402
from host_jit import HostKernel, Unsupported  # noqa: E402

CATALOG: Any = load(ROOT / "tests/codegen/kernels_catalog.py", "kernels_catalog")
HOST_CASES = ["vecadd", "saxpy", "int_ops", "i64_minmax", "loops_up", "loops_down", "collatz", "helpers", "grid2d",
              "logic", "unchecked_copy"]  # fmt: skip


@pytest.mark.parametrize("name", HOST_CASES)
def test_catalog_kernel_on_the_host_matches_numpy(name: str) -> None:
    case = CATALOG.CASES[name]
    n = 300
    host = case.make_args(n, np.random.default_rng(7))
    poisoned = [np.full_like(a, 99) if k in case.outputs else a for k, a in enumerate(host)]
    kernel = HostKernel(case.kernel)
    if case.domain == 2:
        width = host[2]
        result = kernel.run(poisoned, width, block=width, grid_y=-(-n // width))
    else:
        result = kernel.run(poisoned, n)
    assert result.trapped == []
    for k, expected in zip(case.outputs, case.reference(host), strict=True):
        np.testing.assert_array_equal(result.arrays[k], expected, err_msg=f"{name} output {k}")


def test_kernels_needing_threads_together_are_refused_not_misrun() -> None:
    for name in ("block_sum", "warp_sums", "math_funcs", "half_storage"):
        with pytest.raises(Unsupported):
            HostKernel(CATALOG.CASES[name].kernel)


# -- integer arithmetic per dtype -------------------------------------------------------------------------
INT_OPS = ["//", "%", ">>", "<<", "<", "<=", ">", ">=", "==", "!=", "min", "max", "abs", "~", "**3", "&", "|", "^",
           "+", "-", "*", "neg"]  # fmt: skip


@simt.kernel
def i32_ops(a: Slice[i32], b: Slice[i32], s: Slice[i32], c: DisjointSlice[i32], op: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    y = b[i]
    v = i32(0)
    if op == 0:
        v = x // y
    elif op == 1:
        v = x % y
    elif op == 2:
        v = x >> s[i]
    elif op == 3:
        v = x << s[i]
    elif op == 4:
        v = i32(x < y)
    elif op == 5:
        v = i32(x <= y)
    elif op == 6:
        v = i32(x > y)
    elif op == 7:
        v = i32(x >= y)
    elif op == 8:
        v = i32(x == y)
    elif op == 9:
        v = i32(x != y)
    elif op == 10:
        v = min(x, y)
    elif op == 11:
        v = max(x, y)
    elif op == 12:
        v = abs(x)
    elif op == 13:
        v = ~x
    elif op == 14:
        v = x**3
    elif op == 15:
        v = x & y
    elif op == 16:
        v = x | y
    elif op == 17:
        v = x ^ y
    elif op == 18:
        v = x + y
    elif op == 19:
        v = x - y
    elif op == 20:
        v = x * y
    else:
        v = -x
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


@simt.kernel
def u32_ops(a: Slice[u32], b: Slice[u32], s: Slice[u32], c: DisjointSlice[u32], op: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    y = b[i]
    v = u32(0)
    if op == 0:
        v = x // y
    elif op == 1:
        v = x % y
    elif op == 2:
        v = x >> s[i]
    elif op == 3:
        v = x << s[i]
    elif op == 4:
        v = u32(x < y)
    elif op == 5:
        v = u32(x <= y)
    elif op == 6:
        v = u32(x > y)
    elif op == 7:
        v = u32(x >= y)
    elif op == 8:
        v = u32(x == y)
    elif op == 9:
        v = u32(x != y)
    elif op == 10:
        v = min(x, y)
    elif op == 11:
        v = max(x, y)
    elif op == 12:
        v = abs(x)
    elif op == 13:
        v = ~x
    elif op == 14:
        v = x**3
    elif op == 15:
        v = x & y
    elif op == 16:
        v = x | y
    elif op == 17:
        v = x ^ y
    elif op == 18:
        v = x + y
    elif op == 19:
        v = x - y
    else:
        v = x * y
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


@simt.kernel
def i64_ops(a: Slice[i64], b: Slice[i64], s: Slice[i64], c: DisjointSlice[i64], op: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    y = b[i]
    v = i64(0)
    if op == 0:
        v = x // y
    elif op == 1:
        v = x % y
    elif op == 2:
        v = x >> s[i]
    elif op == 4:
        v = i64(x < y)
    elif op == 7:
        v = i64(x >= y)
    elif op == 10:
        v = min(x, y)
    elif op == 11:
        v = max(x, y)
    elif op == 12:
        v = abs(x)
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


def _python_int(op: str, x: int, y: int, s: int) -> int | None:
    table: dict[str, Any] = {
        "//": lambda: x // y,
        "%": lambda: x % y,
        ">>": lambda: x >> s,
        "<<": lambda: x << s,
        "<": lambda: int(x < y),
        "<=": lambda: int(x <= y),
        ">": lambda: int(x > y),
        ">=": lambda: int(x >= y),
        "==": lambda: int(x == y),
        "!=": lambda: int(x != y),
        "min": lambda: min(x, y),
        "max": lambda: max(x, y),
        "abs": lambda: abs(x),
        "~": lambda: ~x,
        "**3": lambda: x**3,
        "&": lambda: x & y,
        "|": lambda: x | y,
        "^": lambda: x ^ y,
        "+": lambda: x + y,
        "-": lambda: x - y,
        "*": lambda: x * y,
        "neg": lambda: -x,
    }
    return int(table[op]())


def _operands(dtype: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs where signed and unsigned (and truncating and flooring) answers differ."""
    info = np.iinfo(dtype)
    if info.min < 0:
        xs = [7, -7, 7, -7, 6, -6, 0, -1, 1, info.min + 1, info.max, -(1 << 20), 5, -5, 3]
        ys = [2, 2, -2, -2, 3, -3, 5, -1, -1, 3, -7, 9, 5, -5, -3]
    else:
        top = info.max
        xs = [7, top, top - 6, 1 << 31, 0, 5, (1 << 31) + 3, 1, 9, top]
        ys = [2, 2, 1 << 31, 3, 4, top, 7, top, 9, 1]
    shifts = [k % 5 for k in range(len(xs))]
    return np.array(xs, dtype), np.array(ys, dtype), np.array(shifts, dtype)


def _wrap(v: int, dtype: Any) -> int:
    bits = np.iinfo(dtype).bits
    v &= (1 << bits) - 1
    if np.iinfo(dtype).min < 0 and v >> (bits - 1):
        v -= 1 << bits
    return v


_KERNELS: dict[Any, tuple[Any, list[str]]] = {
    np.int32: (i32_ops, INT_OPS),
    np.uint32: (u32_ops, [op for op in INT_OPS if op != "neg"]),
    np.int64: (i64_ops, ["//", "%", ">>", "<", ">=", "min", "max", "abs"]),
}
_CODES = {op: k for k, op in enumerate(INT_OPS)}
_CODES_I64 = {"//": 0, "%": 1, ">>": 2, "<": 4, ">=": 7, "min": 10, "max": 11, "abs": 12}


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64], ids=["i32", "u32", "i64"])
def test_integer_operations_follow_python_per_dtype(dtype: Any) -> None:
    kernel_fn, ops = _KERNELS[dtype]
    kernel = HostKernel(kernel_fn)
    xs, ys, shifts = _operands(dtype)
    for op in ops:
        code = _CODES_I64[op] if dtype is np.int64 else _CODES[op]
        result = kernel.run([xs, ys, shifts, np.full_like(xs, 99), code], len(xs), block=32)
        assert result.trapped == [], op
        got = [int(v) for v in result.arrays[3]]
        want = [_wrap(_python_int(op, int(x), int(y), int(s)), dtype) for x, y, s in zip(xs, ys, shifts, strict=True)]
        assert got == want, f"{np.dtype(dtype).name} {op}: operands {list(zip(xs.tolist(), ys.tolist(), strict=True))}"


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64], ids=["i32", "u32", "i64"])
@pytest.mark.parametrize("op", ["//", "%"])
def test_integer_division_by_zero_traps_only_that_thread(dtype: Any, op: str) -> None:
    kernel_fn, _ = _KERNELS[dtype]
    kernel = HostKernel(kernel_fn)
    xs = np.array([5, 6, 7, 8], dtype)
    ys = np.array([1, 0, 2, 0], dtype)
    code = _CODES_I64[op] if dtype is np.int64 else _CODES[op]
    result = kernel.run([xs, ys, np.zeros(4, dtype), np.zeros(4, dtype), code], 4, block=32)
    assert result.trapped == [1, 3]


# -- floating point ---------------------------------------------------------------------------------------
FLOAT_OPS = ["+", "-", "*", "/", "//", "%", "<", "<=", ">", ">=", "==", "!=", "min", "max", "abs", "neg", "ifelse"]


@simt.kernel
def f32_ops(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32], op: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    x = a[i]
    y = b[i]
    v = f32(0.0)
    if op == 0:
        v = x + y
    elif op == 1:
        v = x - y
    elif op == 2:
        v = x * y
    elif op == 3:
        v = x / y
    elif op == 4:
        v = x // y
    elif op == 5:
        v = x % y
    elif op == 6:
        v = f32(x < y)
    elif op == 7:
        v = f32(x <= y)
    elif op == 8:
        v = f32(x > y)
    elif op == 9:
        v = f32(x >= y)
    elif op == 10:
        v = f32(x == y)
    elif op == 11:
        v = f32(x != y)
    elif op == 12:
        v = min(x, y)
    elif op == 13:
        v = max(x, y)
    elif op == 14:
        v = abs(x)
    elif op == 15:
        v = -x
    else:
        v = x if x > y else y + f32(100.0)
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


def _float_mod(x: np.float32, y: np.float32) -> np.float32:
    """Python's `%` on floats: the remainder takes the divisor's sign."""
    r = np.fmod(x, y)
    return np.float32(r + y) if r != 0 and (r < 0) != (y < 0) else np.float32(r)


def _python_float(op: str, x: float, y: float) -> float:
    f = np.float32
    table: dict[str, Any] = {
        "+": lambda: f(x) + f(y),
        "-": lambda: f(x) - f(y),
        "*": lambda: f(x) * f(y),
        "/": lambda: f(x) / f(y),
        "//": lambda: np.floor(f(x) / f(y)),
        "%": lambda: _float_mod(f(x), f(y)),
        "<": lambda: float(x < y),
        "<=": lambda: float(x <= y),
        ">": lambda: float(x > y),
        ">=": lambda: float(x >= y),
        "==": lambda: float(x == y),
        "!=": lambda: float(x != y),
        "min": lambda: min(x, y),  # Python: the first argument wins on ties and NaN
        "max": lambda: max(x, y),
        "abs": lambda: abs(x),
        "neg": lambda: -x,
        "ifelse": lambda: x if x > y else f(y) + f(100.0),
    }  # fmt: skip
    with np.errstate(all="ignore"):  # NaN operands and x / 0 are the point here
        return float(np.float32(table[op]()))


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


def test_float_operations_follow_python_including_nan_and_signed_zero() -> None:
    nan, inf = float("nan"), float("inf")
    xs = np.array([7.5, -7.5, 7.5, -7.5, 1.0, nan, 2.0, nan, -0.0, 3.0, -inf, 0.5, 2.0], np.float32)
    ys = np.array([2.0, 2.0, -2.0, -2.0, 1.0, 1.0, nan, nan, 0.0, 3.0, 1.0, 0.25, 2.0], np.float32)
    kernel = HostKernel(f32_ops)
    for code, op in enumerate(FLOAT_OPS):
        result = kernel.run([xs, ys, np.full_like(xs, 99), code], len(xs), block=32)
        assert result.trapped == []
        for x, y, got in zip(xs.tolist(), ys.tolist(), result.arrays[2].tolist(), strict=True):
            want = _python_float(op, x, y)
            assert _same(float(got), want), f"f32 {op}({x}, {y}) = {got}, Python says {want}"


# -- conversions ------------------------------------------------------------------------------------------
@simt.kernel
def to_int(a: Slice[i32], b: Slice[u32], f: Slice[f32], g: Slice[i64], c: DisjointSlice[i64], op: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    v = i64(0)
    if op == 0:
        v = i64(a[i])
    elif op == 1:
        v = i64(b[i])
    elif op == 2:
        v = i64(i32(f[i]))
    elif op == 3:
        v = i64(u32(abs(f[i])))
    elif op == 4:
        v = i64(i32(g[i]))
    elif op == 5:
        v = i64(bool(a[i]))
    elif op == 6:
        v = i64(u32(a[i]))
    elif op == 7:
        v = i64(bool(f[i]))
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


@simt.kernel
def to_float(a: Slice[i32], b: Slice[u32], f: Slice[f32], g: Slice[i64], c: DisjointSlice[f64], op: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(a):
        return
    v = f64(0.0)
    if op == 0:
        v = f64(a[i])
    elif op == 1:
        v = f64(b[i])
    elif op == 2:
        v = f64(f[i])
    elif op == 3:
        v = f64(f32(g[i]))
    elif op == 4:
        v = f64(f32(f64(f[i]) * 3.0))
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


def test_conversions_keep_sign_and_width_per_dtype() -> None:
    a = np.array([-1, 5, -(1 << 31), 0, 123456789], np.int32)
    b = np.array([0xFFFFFFFF, 5, 1 << 31, 0, 7], np.uint32)
    f = np.array([-2.75, 3.5, -0.5, 0.0, 16777217.0], np.float32)
    g = np.array([(1 << 32) + 5, -1, (1 << 31), 0, (1 << 40) + 3], np.int64)
    ints = HostKernel(to_int)
    expected_int = {
        0: [int(x) for x in a],
        1: [int(x) for x in b],
        2: [math.trunc(x) for x in f.tolist()],
        3: [math.trunc(abs(x)) for x in f.tolist()],
        4: [_wrap(int(x), np.int32) for x in g],
        5: [int(bool(x)) for x in a],
        6: [int(x) & 0xFFFFFFFF for x in a],
        7: [int(bool(x)) for x in f.tolist()],
    }
    for op, want in expected_int.items():
        result = ints.run([a, b, f, g, np.full(5, 99, np.int64), op], 5, block=32)
        assert result.arrays[4].tolist() == want, f"to_int op {op}"
    floats = HostKernel(to_float)
    expected_float = {
        0: [float(x) for x in a],
        1: [float(x) for x in b],
        2: f.astype(np.float64).tolist(),
        3: g.astype(np.float32).astype(np.float64).tolist(),
        4: (f.astype(np.float64) * 3.0).astype(np.float32).astype(np.float64).tolist(),
    }
    for op, want in expected_float.items():
        result = floats.run([a, b, f, g, np.full(5, 99, np.float64), op], 5, block=32)
        assert result.arrays[4].tolist() == want, f"to_float op {op}"


# -- control flow -----------------------------------------------------------------------------------------
@simt.kernel
def unsigned_range(c: DisjointSlice[u32], start: u32, stop: u32, step: u32) -> None:
    idx = thread.index_1d()
    acc = u32(0)
    count = u32(0)
    for j in range(start, stop, step):
        acc += j
        count += 1
    if (out := c.get_mut(idx)) is not None:
        out.set(acc * 1000 + count)


@simt.kernel
def signed_range(c: DisjointSlice[i32], start: i32, stop: i32, step: i32) -> None:
    idx = thread.index_1d()
    acc = i32(0)
    count = i32(0)
    for j in range(start, stop, step):
        if j == 4:
            continue
        acc += j
        count += 1
        if count > 50:
            break
    k = i32(0)
    while k < 3:
        k += 1
        if k == 2:
            break
    for m in range(6, start, -2):
        acc += m * 100
    if (out := c.get_mut(idx)) is not None:
        out.set(acc * 1000 + count * 10 + k)


def _signed_range_reference(start: int, stop: int, step: int) -> int:
    acc = count = 0
    for j in range(start, stop, step):
        if j == 4:
            continue
        acc += j
        count += 1
        if count > 50:
            break
    acc += sum(m * 100 for m in range(6, start, -2))
    return acc * 1000 + count * 10 + 2


@pytest.mark.parametrize(
    ("start", "stop", "step"), [(0, 10, 3), (10, 0, -3), (-5, 5, 2), (5, -5, -2), (3, 3, 1), (0, 200, 1), (9, 0, 1)]
)
def test_signed_range_any_step_sign_continue_break(start: int, stop: int, step: int) -> None:
    result = HostKernel(signed_range).run([np.zeros(1, np.int32), start, stop, step], 1, block=1)
    assert result.trapped == []
    assert int(result.arrays[0][0]) == _signed_range_reference(start, stop, step)


@pytest.mark.parametrize(("start", "stop", "step"), [(0, 10, 3), (10, 0, 1), ((1 << 31) + 1, (1 << 31) + 8, 2)])
def test_unsigned_range_compares_unsigned(start: int, stop: int, step: int) -> None:
    result = HostKernel(unsigned_range).run([np.zeros(1, np.uint32), start, stop, step], 1, block=1)
    values = list(range(start, stop, step))
    assert int(result.arrays[0][0]) == (sum(values) * 1000 + len(values)) & 0xFFFFFFFF


@pytest.mark.parametrize("kernel", [signed_range, unsigned_range], ids=["signed", "unsigned"])
def test_range_step_zero_traps(kernel: Any) -> None:
    dtype = np.int32 if kernel is signed_range else np.uint32
    result = HostKernel(kernel).run([np.zeros(1, dtype), 0, 5, 0], 1, block=1)
    assert result.trapped == [0]


@simt.kernel
def guarded(a: Slice[i32], c: DisjointSlice[i32], k: u32) -> None:
    """Reads `a[k]` only behind a short-circuit or a conditional expression: never traps for k >= len(a)."""
    idx = thread.index_1d()
    v = i32(0)
    if k < len(a) and a[k] > 0:
        v += 1
    if k >= len(a) or a[k] < 0:
        v += 10
    v += a[k] * 100 if k < len(a) else i32(-1000)
    if not k < len(a):
        v += 7
    if (out := c.get_mut(idx)) is not None:
        out.set(v)


@pytest.mark.parametrize(("k", "want"), [(0, 1 + 500), (1, 10 - 300), (2, 0), (3, 10 - 1000 + 7), (9, 10 - 1000 + 7)])
def test_short_circuit_and_conditional_expression_guard_reads(k: int, want: int) -> None:
    a = np.array([5, -3, 0], np.int32)
    result = HostKernel(guarded).run([a, np.zeros(1, np.int32), k], 1, block=1)
    assert result.trapped == []
    assert int(result.arrays[1][0]) == want


@pytest.mark.parametrize(("k", "traps"), [(99, False), (100, True), (101, True)])
def test_read_at_len_traps_on_the_host_too(k: int, traps: bool) -> None:
    a = np.arange(100, dtype=np.float32)
    result = HostKernel(CATALOG.read_at).run([a, np.zeros(2, np.float32), k], 2, block=2)
    assert result.trapped == ([0, 1] if traps else [])
    if not traps:
        assert result.arrays[1].tolist() == [float(k), float(k)]


# -- atomics ----------------------------------------------------------------------------------------------
@simt.kernel
def atomics(keys: Slice[u32], vals: Slice[i32], uvals: Slice[u32], counts: AtomicSlice[i32], ext: AtomicSlice[i32],
            uext: AtomicSlice[u32], olds: DisjointSlice[i32]) -> None:  # fmt: skip
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(keys):
        return
    counts.fetch_add(keys[i], 1)
    ext.fetch_max(0, vals[i])
    ext.fetch_min(1, vals[i])
    uext.fetch_max(0, uvals[i])
    uext.fetch_min(1, uvals[i])
    old = ext.compare_exchange(2, vals[i] - 1, vals[i])
    if (out := olds.get_mut(idx)) is not None:
        out.set(old)


def test_atomics_per_dtype_and_compare_exchange() -> None:
    keys = np.array([0, 1, 1, 3, 3, 3], np.uint32)
    vals = np.array([-5, 7, -9, 2, 3, 4], np.int32)
    uvals = np.array([5, 0xFFFFFFF0, 1 << 31, 2, 0, 9], np.uint32)
    args = [keys, vals, uvals, np.zeros(4, np.int32), np.array([-100, 100, 1], np.int32),
            np.array([3, 7], np.uint32), np.zeros(6, np.int32)]  # fmt: skip
    result = HostKernel(atomics).run(args, 6, block=4)
    assert result.trapped == []
    assert result.arrays[3].tolist() == [1, 2, 0, 3]
    assert result.arrays[4].tolist() == [7, -9, 4]  # the CAS chain 1 -> 2 -> 3 -> 4 (threads 3, 4, 5 in order)
    assert result.arrays[5].tolist() == [0xFFFFFFF0, 0]
    assert result.arrays[6].tolist() == [1, 1, 1, 1, 2, 3]


def test_an_atomic_at_len_traps() -> None:
    keys = np.array([3, 4], np.uint32)  # counts has 4 elements: key 4 is out of bounds
    args = [keys, np.zeros(2, np.int32), np.zeros(2, np.uint32), np.zeros(4, np.int32), np.zeros(3, np.int32),
            np.zeros(2, np.uint32), np.zeros(2, np.int32)]  # fmt: skip
    result = HostKernel(atomics).run(args, 2, block=2)
    assert result.trapped == [1]


# -- memory: shared arrays, bool storage, f16 scalars -----------------------------------------------------
@simt.kernel
def stash(a: Slice[i32], flags: Slice[bool_], c: DisjointSlice[i32], marks: DisjointSlice[bool_], k: u32) -> None:
    """Stores `a[0]` into a shared array at `k` and reads it back; copies a bool slice through its negation."""
    idx = thread.index_1d()
    i = idx.get()
    with simt.unsafe():
        s = simt.shared_array(i32, 8)
        s[k] = a[0]
        v = s[k % 8]  # in bounds whatever k is: only the store can trap
    if i < len(flags) and (mark := marks.get_mut(idx)) is not None:
        mark.set(not flags[i])
    if i == 0 and (out := c.get_mut(thread.index_1d())) is not None:
        out.set(v)


@pytest.mark.parametrize(("k", "traps"), [(7, False), (8, True), (9, True)])
def test_shared_array_store_is_bounds_checked_at_the_length(k: int, traps: bool) -> None:
    flags = np.array([True, False, True], np.bool_)
    args = [np.array([42], np.int32), flags, np.zeros(1, np.int32), np.zeros(3, np.bool_), k]
    result = HostKernel(stash).run(args, 3, block=3)
    if traps:
        assert result.trapped == [0, 1, 2]
    else:
        assert result.trapped == []
        assert result.arrays[2].tolist() == [42]
        assert result.arrays[3].tolist() == [False, True, False]
        assert result.arrays[3].view(np.uint8).tolist() == [0, 1, 0]  # stored as one byte, 0 or 1


@simt.kernel
def widen(h: f16, d: f64, c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    if (out := c.get_mut(idx)) is not None:
        out.set(f32(h) * f32(2.0) + f32(d) + f16(f32(d) * f32(3.0)))


def test_float_widening_is_exact_and_narrowing_rounds() -> None:
    """An f16 scalar widens with `fpext` (exact), an f64 narrows with `fptrunc`, and `f16(x)` rounds x to half
    precision and back (checked in the IR: the host JIT cannot call the half-precision helpers)."""
    ir = str(codegen.compile_simt_kernel(widen, arch="sm_90", use_cache=False).llvm_ir)
    assert 'fpext half %"h" to float' in ir
    assert "fptrunc double" in ir
    rounded = re.search(r'(%"?[\w.]+"?) = fptrunc float %"?[\w.]+"? to half', ir)
    assert rounded is not None, "f16(x) does not round to half precision"
    assert f"fpext half {rounded.group(1)} to float" in ir


@simt.kernel
def cas_at(cells: AtomicSlice[i32], k: u32, olds: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    old = cells.compare_exchange(k, 0, 5)
    if (out := olds.get_mut(idx)) is not None:
        out.set(old)


@pytest.mark.parametrize(("k", "traps"), [(2, False), (3, True)])
def test_compare_exchange_at_len_traps(k: int, traps: bool) -> None:
    result = HostKernel(cas_at).run([np.array([0, 1, 0], np.int32), k, np.full(1, 9, np.int32)], 1, block=1)
    assert result.trapped == ([0] if traps else [])
    if not traps:
        assert result.arrays[0].tolist() == [0, 1, 5]
        assert result.arrays[2].tolist() == [0]
