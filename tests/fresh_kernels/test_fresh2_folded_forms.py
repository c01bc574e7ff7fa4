"""The GPU's value of each second-batch constant form, read from what LLVM folded, equals the CPU executor's.

Tile forms: the constants the sm_90a LLVM IR stores (integers compared modulo their width, floats bitwise with
signed zeros). SIMT forms: the immediate of the PTX store. No GPU needed.
"""

from __future__ import annotations

import math

import pytest
from fresh2_folded_forms import SIMT_KERNELS, SIMT_NAMES, TILE_FORMS, tile_kernel
from fresh_folded_forms import llvm_stores
from fresh_simt_folded_forms import ptx_stored

import safekernels as sk
from safekernels import simt, tile
from safekernels.codegen.pipeline import compile_simt_kernel
from safekernels.dtypes import dtype_of, f64, i64

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


def _same(gpu: float | int, cpu: float | int, dt: str) -> bool:
    kind = dtype_of(dt).kind
    if kind in ("i", "u"):
        bits = dtype_of(dt).bits
        return bool((int(gpu) - int(cpu)) % 2**bits == 0)
    g, c = float(gpu), float(cpu)
    return (math.isnan(g) and math.isnan(c)) or (g == c and math.copysign(1.0, g) == math.copysign(1.0, c))


@pytest.mark.parametrize("name", list(TILE_FORMS))
def test_the_folded_tile_value_is_the_cpu_executors(name: str) -> None:
    dt = TILE_FORMS[name][0]
    kernel = tile_kernel(name)
    stream = sk.Device.cpu().new_stream()
    (out,) = kernel(tile.zeros((8,), dtype_of(dt)).partition((8,))).sync_on(stream)
    cpu = out.unpartition().to_numpy(stream)
    llvm = kernel.inspect(tile.zeros((8,), dtype_of(dt)).partition((8,)), arch="sm_90a")["llvm"]
    folded = llvm_stores(llvm, dt)
    assert len(folded) == 8, f"{name}: LLVM did not fold the stored value"
    bad = [(g, c) for g, c in zip(folded, cpu.tolist(), strict=True) if not _same(g, c, dt)]
    assert not bad, f"{name}: GPU (folded) vs CPU executor: {bad[:2]}"


@pytest.mark.parametrize(("name", "dt", "expr"), SIMT_NAMES, ids=[f"{dt}({expr})" for _, dt, expr in SIMT_NAMES])
def test_the_folded_simt_value_is_the_cpu_executors(name: str, dt: str, expr: str) -> None:
    kernel = getattr(SIMT_KERNELS, name)
    device = sk.Device.cpu()
    stream = device.new_stream()
    out = sk.zeros(1, i64 if dt == "i64" else f64, stream)
    kernel.launch(kernel.prepare(simt.LaunchConfig1D.for_len(1, block=32), device), stream, out)
    cpu = out.to_numpy(stream)[0].item()
    ptx = compile_simt_kernel(kernel, arch="sm_90", use_cache=False).ptx
    gpu = ptx_stored(ptx, dt)
    assert gpu is not None, f"{expr}: no store of a constant in the PTX\n{ptx[-600:]}"
    assert _same(gpu, cpu, dt), f"{expr}: GPU (folded) {gpu!r}, CPU executor {cpu!r}"
