"""Run-time scalars of tile kernels compute in the front end's types on both executors (docs/numerics.md).

A run-time integer scalar times a float literal is f32 (the front end's rule, visible in the LLVM IR as
`sitofp ... to float` then `fmul float`); the CPU executor used to compute it in f64.  It now evaluates every
scalar expression by the ops the front end typed (`safekernels.cpu.tile_scalars`), so both give f32.  The same
mechanism covers a cast (`f64(n) * 0.1` is f64: the GPU used to drop the cast) and a comparison of an f64
(compared in f64: the GPU used to compare in f32).
"""

from __future__ import annotations

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, f64, i32
from safekernels.tile import Partition

GPU_VALUE = np.float32(np.float32(9) * np.float32(0.1))  # what the f32 rule computes (0.90000004)


@tile.kernel
def literal(out: Annotated[Partition[f32], tile.Dims(4)], n: i32) -> None:
    out.store(tile.full((4,), n * 0.1, f32))


@tile.kernel
def converted(out: Annotated[Partition[f32], tile.Dims(4)], n: i32) -> None:
    out.store(tile.full((4,), f32(n) * 0.1, f32))


@tile.kernel
def divided(out: Annotated[Partition[f64], tile.Dims(4)], n: i32) -> None:
    out.store(tile.full((4,), (n + tile.bid(0)) / 10, f64))


@tile.kernel
def cast_f64(out: Annotated[Partition[f64], tile.Dims(4)], n: i32) -> None:
    out.store(tile.full((4,), f64(n) * 0.1, f64))


@tile.kernel
def compare_f64(out: Annotated[Partition[f64], tile.Dims(4)], d: f64) -> None:
    out.store(tile.full((4,), (d > 0.1) * 1.0, f64))


def _cpu(kernel: object, dtype: object, arg: object) -> np.generic:
    stream = sk.Device.cpu().new_stream()
    out, *_ = kernel(tile.zeros((4,), dtype).partition((4,)), arg).sync_on(stream)  # type: ignore[operator]
    value: np.generic = out.unpartition().to_numpy(stream)[0]
    return value


def _llvm(kernel: object, dtype: object, arg: object) -> str:
    text: str = kernel.inspect(tile.zeros((4,), dtype).partition((4,)), arg, arch="sm_90a")["llvm"]  # type: ignore[attr-defined]
    return text


def test_an_int_scalar_times_a_float_literal_is_f32_on_the_cpu_executor() -> None:
    llvm = _llvm(literal, f32, np.int32(9))
    assert "sitofp i32" in llvm and "fmul float" in llvm
    assert _cpu(literal, f32, np.int32(9)) == GPU_VALUE


def test_converting_first_agrees_on_both() -> None:
    llvm = _llvm(converted, f32, np.int32(9))
    assert "sitofp i32" in llvm and "fmul float" in llvm
    assert _cpu(converted, f32, np.int32(9)) == GPU_VALUE


def test_true_division_of_run_time_ints_is_f32_then_widened() -> None:
    llvm = _llvm(divided, f64, np.int32(9))
    assert "fdiv float" in llvm and "fpext float" in llvm
    assert _cpu(divided, f64, np.int32(9)) == np.float64(np.float32(9) / np.float32(10))  # 0.8999999761581421


def test_a_scalar_cast_converts_on_both() -> None:
    llvm = _llvm(cast_f64, f64, np.int32(9))
    assert "sitofp i32" in llvm and "to double" in llvm
    assert "fmul double" in llvm and "fmul float" not in llvm
    assert _cpu(cast_f64, f64, np.int32(9)) == np.float64(9) * 0.1


def test_an_f64_is_compared_in_f64_on_both() -> None:
    d = np.float64(0.1000000001)  # above 0.1, but the same f32 as 0.1
    llvm = _llvm(compare_f64, f64, d)
    (compare,) = [line for line in llvm.splitlines() if "fcmp" in line]
    assert "double" in compare and "1.000000e-01" in compare  # 0.1 itself (in f32 it compared against 0.1f)
    assert _cpu(compare_f64, f64, d) == 1.0


@tile.kernel
def carried(out: Annotated[Partition[f64], tile.Dims(4)], n: i32) -> None:
    x = 0.1  # carried by the loop: an f32 scalar, also when the loop runs zero times
    for _ in range(n - n):
        x = x * 2.0
    out.store(tile.zeros((4,), f64) + x)


def test_a_number_a_loop_carries_is_its_carried_type_on_both() -> None:
    llvm = _llvm(carried, f64, np.int32(9))
    assert "0x3FB99999A0000000" in llvm  # 0.1 rounded to f32, widened for the f64 tile
    assert _cpu(carried, f64, np.int32(9)) == np.float64(np.float32(0.1))


@tile.kernel
def asserting(out: Annotated[Partition[f64], tile.Dims(4)], n: i32) -> None:
    assert n * 0.5 < 3, "n too big"  # the CPU executor runs the body rewritten: the file's line still shows
    out.store(tile.zeros((4,), f64))


def test_the_rewritten_body_keeps_the_files_lines() -> None:
    import inspect

    from safekernels.errors import KernelAssertionError

    line = inspect.getsourcelines(asserting.fn)[1] + 2
    stream = sk.Device.cpu().new_stream()
    try:
        asserting(tile.zeros((4,), f64).partition((4,)), np.int32(9)).sync_on(stream)
    except KernelAssertionError as exc:
        assert f"test_known_int_float_literal.py:{line}:" in str(exc), str(exc)
    else:
        raise AssertionError("the assert did not fail")
