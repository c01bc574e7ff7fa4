"""Bool scalars in arithmetic, scalar `min`/`max`/`abs` and `z.tile_shape` in tile kernel bodies: the CPU
executor computes what Python computes, the front end types them as docs/numerics.md says, the GPU compiler
accepts the same kernels and nvJitLink assembles them for sm_90a and sm_80, and the refusals are the same SK
code at the same place on both executors (no GPU needed; the H200 half is tests/gpu_tile/test_gpu_scalar_builtins.py).
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError
from safekernels.codegen.tile.frontend import build_tile_ir
from safekernels.codegen.tile.ir import INDEX, ScalarType
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
import scalar_builtin_kernels as K

CPU = sk.Device.cpu()
F32, I32 = dtype_of("f32"), dtype_of("i32")
ARCHS = ("sm_90a", "sm_80")

#: kernel -> (parameter specs (kind, dtype, shape, tile shape), grid rank) for the compiler
SPECS: dict[str, tuple[Any, list[tuple[str, Any, Any, Any]], int]] = {
    "clamp_steps": (K.clamp_steps, [("partition", F32, (8,), (8,)), ("tensor", F32, (32,), None)], 1),
    "bool_arith": (
        K.bool_arith,
        [("partition", I32, (32,), (8,)), ("partition", F32, (32,), (8,)), ("scalar", I32, None, None),
         ("scalar", F32, None, None)],
        1,
    ),
    "int_extremes": (
        K.int_extremes,
        [("partition", I32, (32,), (8,)), ("tensor", F32, (40,), None), ("scalar", I32, None, None)],
        1,
    ),
    "float_extremes": (
        K.float_extremes,
        [("partition", F32, (8,), (4,))] * 5 + [("scalar", F32, None, None)] * 2 + [("scalar", I32, None, None)],
        1,
    ),
    "copy_rows": (K.copy_rows, [("partition", F32, (4, 8), (2, 8)), ("tensor", F32, (4, 8), None)], 2),
}  # fmt: skip


def _params(fn: Any, spec: list[tuple[str, Any, Any, Any]]) -> list[Any]:
    names = fn.fn.__code__.co_varnames
    return [
        param_info(names[i], kind, dt) if kind == "scalar" else param_info(names[i], kind, dt, shape, tile_shape)
        for i, (kind, dt, shape, tile_shape) in enumerate(spec)
    ]


# -- values on the CPU executor ----------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [8, 16, 24, 32, 64])
def test_bool_arithmetic_bound_runs_like_python(length: int) -> None:
    x = np.arange(length, dtype=np.float32).reshape(-1, 8)
    left = length // 8
    want = x[: left - (left > 2) * (left - 2)].sum(axis=0)
    np.testing.assert_array_equal(K.run_clamp_steps(CPU, length), want)


@pytest.mark.parametrize(("n", "s"), [(0, 0.0), (1, 0.75), (3, -2.5), (7, 4.0), (-4, 0.5)])
def test_bool_scalars_count_as_ints_like_python(n: int, s: float) -> None:
    ints, floats = K.run_bool_arith(CPU, n, s)
    want_i, want_f = K.bool_arith_expected(n, s, 4)
    np.testing.assert_array_equal(ints, want_i)
    np.testing.assert_array_equal(floats, want_f)


@pytest.mark.parametrize(("n", "length"), [(0, 8), (5, 40), (-3, 16), (20, 32), (8, 64)])
def test_int_min_max_abs_are_pythons(n: int, length: int) -> None:
    np.testing.assert_array_equal(K.run_int_extremes(CPU, n, length), K.int_extremes_expected(n, length, 4))


FLOAT_CASES = [(-2.5, 1.5, 3), (1.5, -2.5, -7), (math.nan, 1.0, 0), (1.0, math.nan, 1), (0.0, -0.0, 2),
               (-0.0, 0.0, 2), (-math.inf, math.inf, 4), (-3.0, -3.0, -1)]  # fmt: skip


def assert_same_floats(got: np.ndarray, want: np.ndarray) -> None:
    """Equal values, NaN where NaN, and the same sign of zero."""
    assert (np.isnan(got) == np.isnan(want)).all(), (got, want)
    assert (np.signbit(got) == np.signbit(want))[~np.isnan(want)].all(), (got, want)
    np.testing.assert_array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


@pytest.mark.parametrize(("s", "t", "n"), FLOAT_CASES)
def test_float_min_max_abs_are_pythons_nan_and_zero_sign_included(s: float, t: float, n: int) -> None:
    for got, want in zip(K.run_float_extremes(CPU, s, t, n), K.float_extremes_expected(s, t, n), strict=True):
        assert_same_floats(got, want)


def test_python_keeps_the_first_of_equal_or_unordered_arguments() -> None:
    """The rule the GPU lowering copies: a later argument replaces the result only when strictly smaller."""
    assert math.isnan(min(math.nan, 1.0)) and min(1.0, math.nan) == 1.0
    assert math.copysign(1.0, min(0.0, -0.0)) == 1.0 and math.copysign(1.0, max(-0.0, 0.0)) == -1.0


@pytest.mark.parametrize("tile_rows", [1, 2, 4])
def test_tile_shape_in_a_kernel_body_is_the_partitions(tile_rows: int) -> None:
    x = np.arange(32, dtype=np.float32).reshape(4, 8)
    np.testing.assert_array_equal(K.run_copy_rows(CPU, tile_rows), x * 9)


# -- typing -------------------------------------------------------------------------------------------------------


def _scalar_types(name: str) -> list[tuple[str, ScalarType]]:
    fn, spec, rank = SPECS[name]
    kir = build_tile_ir(fn.fn, _params(fn, spec), rank)
    out = []

    def walk(ops: list[Any]) -> None:
        for op in ops:
            if op.kind == "scalar":
                out.append((op.attrs["op"], op.result.type))
            walk(getattr(op, "body", []) or [])

    walk(kir.body)
    return out


def test_bool_arithmetic_types_follow_python_and_numpy() -> None:
    types = _scalar_types("clamp_steps")
    assert ("*", INDEX) in types and ("-", INDEX) in types  # (left > 2) * (left - 2): an index, a range bound
    types = _scalar_types("bool_arith")
    assert ("*", ScalarType(I32)) in types  # (n > b) * n: the typed int
    assert ("*", ScalarType(F32)) in types  # (s > b) * s: the float
    assert ("/", ScalarType(F32)) in types  # (b == 1) / 2: true division, a float
    assert ("^", INDEX) in types  # bool ^ bool: computed on 0/1 ...
    assert ("!=", ScalarType(dtype_of("bool"))) in types  # ... and compared back to a bool


def test_min_max_take_the_promoted_type() -> None:
    types = _scalar_types("int_extremes")
    assert ("min", ScalarType(I32)) in types and ("max", INDEX) in types and ("abs", INDEX) in types
    assert ("abs", ScalarType(I32)) in types
    types = _scalar_types("float_extremes")
    assert ("max", ScalarType(F32)) in types and ("abs", ScalarType(F32)) in types


# -- the GPU compiler ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_gpu_compiler_accepts_and_nvjitlink_assembles(name: str, arch: str) -> None:
    fn, spec, rank = SPECS[name]
    c = compile_tile(fn.fn, _params(fn, spec), rank, arch=arch, use_cache=False)
    assert c.cubin[:4] == b"\x7fELF"
    if name == "float_extremes":  # Python's min/max of two runtime floats: a compare and a select
        assert re.search(r"selp\.(f32|b32)", c.ptx) and "abs.f32" in c.ptx


# -- refusals, alike on both executors -----------------------------------------------------------------------------


def _cpu_refusal(name: str) -> DiagnosticError:
    fn = K.REFUSED[name][0]
    st = CPU.new_stream()
    out = sk.tile.zeros((8,), I32).partition((8,))
    arg: Any = sk.tile.from_numpy(np.zeros(8, np.int32)) if name == "tensor_tile_shape" else np.int32(3)
    with pytest.raises(DiagnosticError) as info:
        fn(out, arg).sync_on(st)
    return info.value


@pytest.mark.parametrize("name", sorted(K.REFUSED))
def test_refused_with_the_same_code_and_place_on_both_executors(name: str) -> None:
    fn, code, phrase = K.REFUSED[name]
    cpu = _cpu_refusal(name)
    second = ("tensor", I32, (8,), None) if name == "tensor_tile_shape" else ("scalar", I32, None, None)
    params = _params(fn, [("partition", I32, (8,), (8,)), second])
    with pytest.raises(DiagnosticError) as gpu:
        compile_tile(fn.fn, params, 1, arch="sm_90a", use_cache=False)
    assert cpu.diagnostics[0].code == code == gpu.value.diagnostics[0].code
    assert phrase in str(cpu), str(cpu)
    assert str(cpu).splitlines()[0] == str(gpu.value).splitlines()[0]
    assert re.match(r".+scalar_builtin_kernels\.py:\d+:\d+: SK\d{3}", str(cpu)), str(cpu)
