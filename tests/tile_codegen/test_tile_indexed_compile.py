"""CI without a GPU: the issue-13 tile ops compile to the PTX they should (atomics, predicated traps, runtime
loops), the `range(k_tiles)` with an `i32` parameter regression, and their SK diagnostics."""

from __future__ import annotations

import re
from typing import Any

import pytest

from ownership_check.diagnostics import DiagnosticError
from safekernels import tile
from safekernels.codegen.tile.pipeline import compile_tile
from safekernels.codegen.tile.specialize import param_info
from safekernels.dtypes import dtype_of, f16, f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

F32, F16, I32, U32 = dtype_of("f32"), dtype_of("f16"), dtype_of("i32"), dtype_of("u32")
BM, BN, BK = 64, 64, 32


@tile.kernel
def gemm_i32_bound(c: Partition[f32], a: Tensor[f16], b: Tensor[f16], k_tiles: i32) -> None:
    acc = tile.zeros((BM, BN), f32)
    for k in range(k_tiles):
        acc = tile.matmul(a.load((tile.bid(0), k), (BM, BK)), b.load((k, tile.bid(1)), (BK, BN)), acc)
    c.store(acc)


def _compile(kernel: Any, params: list[Any], grid_rank: int, arch: str = "sm_90") -> Any:
    return compile_tile(kernel.fn, params, grid_rank, arch=arch, use_cache=False)


def test_an_i32_loop_bound_and_index_compile_like_on_the_cpu() -> None:
    params = [
        param_info("c", "partition", F32, (256, 256), (BM, BN)),
        param_info("a", "tensor", F16, (256, 256)),
        param_info("b", "tensor", F16, (256, 256)),
        param_info("k_tiles", "scalar", I32),
    ]
    out = _compile(gemm_i32_bound, params, 2)
    assert out.cubin and "mma.sync" in out.ptx
    # the i32 bound widens to the i64 index: a sign-extending convert, or folded into the parameter load
    assert re.search(r"cvt\.s64\.s32|ld\.param\.s32\s+%rd", out.ptx), "the i32 bound widens to the i64 index"


@tile.kernel
def histogram(z: Partition[i32], counts: AtomicTensor[i32], peak: AtomicTensor[f32], x: Tensor[i32]) -> None:
    k = tile.load_like(x, z)
    tile.atomic_add(counts, (k & 15,), 1, mask=k >= 0)
    tile.atomic_max(peak, (k & 3,), k.astype(f32))
    tile.atomic_min(counts, (k & 15,), k)
    z.store(tile.cumsum(k) // (tile.argmax(k) + 1))


def test_atomics_lower_to_red_or_atom_and_division_keeps_its_zero_trap() -> None:
    params = [
        param_info("z", "partition", I32, (1000,), (256,)),
        param_info("counts", "atomic", I32, (16,)),
        param_info("peak", "atomic", F32, (4,)),
        param_info("x", "tensor", I32, (1000,)),
    ]
    out = _compile(histogram, params, 1)
    assert re.search(r"(red|atom)\.global\.add\.[us]32", out.ptx)
    assert re.search(r"(red|atom)\.global\.min\.s32", out.ptx)
    assert re.search(r"atom\.[\w.]*cas\.b32", out.ptx)  # f32 fmax: a compare-and-swap loop
    assert "@%p trap;" in out.ptx, "a runtime divisor is checked for zero"
    assert "readonly" in out.llvm_ir  # x stays a read-only input; the atomic outputs do not
    assert out.llvm_ir.count("readonly") == 1


@tile.kernel
def gather_scatter(z: Partition[f32], table: Tensor[f32], ids: Tensor[i32]) -> None:
    i = tile.load_like(ids, z)
    v = tile.gather(table, (tile.reshape(i, (8, 16)), tile.reshape(tile.iota(16, i32), (1, 16))))
    pos = tile.bid(0) * 128 + 127 - tile.iota(128, i32)
    tile.scatter(z, (pos,), tile.reshape(v, (128,)), mask=i >= 0)


def test_gather_and_scatter_compile_with_masks() -> None:
    params = [
        param_info("z", "partition", F32, (500,), (128,)),
        param_info("table", "tensor", F32, (40, 16)),
        param_info("ids", "tensor", I32, (500,)),
    ]
    out = _compile(gather_scatter, params, 1, arch="sm_90a")
    assert out.cubin and "ld.global" in out.ptx and "st.global" in out.ptx


@pytest.mark.parametrize(
    ("body", "code", "needle"),
    [
        ("tile.atomic_add(x, (tile.iota(4, i32),), 1.0)", "SK006", "AtomicTensor parameter"),
        ("tile.atomic_add(acc, (tile.iota(4, i32),), 1.0)", "SK023", "a float value for the i32 tensor"),
        ("tile.atomic_add(acc, (tile.iota(4, i32),), tile.zeros((4,), f32))", "SK022", "values have dtype f32"),
        ("tile.atomic_add(acc, (tile.iota(4, i32), 0), 1)", "SK023", "has rank 1, got 2 index"),
        ("tile.gather(x, (tile.iota(4, f32),))", "SK023", "integer dtype"),
        ("tile.scatter(x, (tile.iota(4, i32),), 1.0)", "SK006", "Partition parameter"),
        ("tile.scan(tile.iota(4, i32), op='mul')", "SK023", "op must be one of"),
        ("tile.load_like(x, z) // 2.0", "SK023", "`//` needs integer tiles"),
        ("recurse(tile.iota(4, i32))", "SK001", "calls itself"),
    ],
)
def test_misuse_is_a_located_sk_diagnostic(body: str, code: str, needle: str, tmp_path: Any) -> None:
    import importlib.util

    path = tmp_path / "bad_kernel.py"
    path.write_text(
        "from typing import Any\n"
        "from safekernels import tile\n"
        "from safekernels.dtypes import f32, i32\n"
        "from safekernels.tile import AtomicTensor, Partition, Tensor\n\n"
        "@tile.function\n"
        "def recurse(t: Any) -> Any:\n"
        "    return recurse(t)\n\n"
        "@tile.kernel\n"
        "def bad(z: Partition[f32], acc: AtomicTensor[i32], x: Tensor[f32]) -> None:\n"
        f"    {body}\n"
        "    z.store(tile.load_like(x, z))\n"
    )
    spec = importlib.util.spec_from_file_location("bad_kernel_mod", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    params = [
        param_info("z", "partition", F32, (8,), (4,)),
        param_info("acc", "atomic", I32, (4,)),
        param_info("x", "tensor", F32, (8,)),
    ]
    with pytest.raises(DiagnosticError) as info:
        _compile(module.bad, params, 1)
    (diag,) = info.value.diagnostics
    assert diag.code == code and needle in diag.message, diag
    line = 8 if code == "SK001" else 12
    assert diag.path == str(path) and diag.span.line == line


_ = f16


@tile.kernel
def bins_from_shape(z: Partition[i32], counts: AtomicTensor[i32], x: Tensor[i32]) -> None:
    k = tile.load_like(x, z)
    tile.atomic_add(counts, (k % counts.shape[0],), 1)
    z.store(k)


def test_an_atomic_tensor_shape_is_readable() -> None:
    params = [
        param_info("z", "partition", I32, (64,), (64,)),
        param_info("counts", "atomic", I32, (10,)),
        param_info("x", "tensor", I32, (64,)),
    ]
    assert _compile(bins_from_shape, params, 1).cubin
