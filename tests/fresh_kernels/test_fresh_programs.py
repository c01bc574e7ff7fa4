"""Fresh programs on the CPU executor against numpy/Python, and assembled by the GPU compiler (no GPU needed).

For each program: the CPU executor's values equal the reference; nvJitLink assembles it for sm_90a and sm_80;
where its form is constant-foldable, the value LLVM folded into the sm_90a IR (what the GPU stores) is the CPU
executor's. Refusals: both executors refuse with the same SK code on the same line.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from fresh_program import Program, Refusal, stores
from fresh_simt_programs import PROGRAMS as SIMT_PROGRAMS
from fresh_simt_programs import REFUSALS as SIMT_REFUSALS
from fresh_tile_programs import PROGRAMS as TILE_PROGRAMS
from fresh_tile_programs import REFUSALS as TILE_REFUSALS

import safekernels as sk
from ownership_check.diagnostics import DiagnosticError

PROGRAMS = [*TILE_PROGRAMS, *SIMT_PROGRAMS]
#: Wrap-around and saturating conversions are defined by the language: the CPU executor must not warn about them.
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")
REFUSALS = [*TILE_REFUSALS, *SIMT_REFUSALS]


def assert_close(got: list[np.ndarray], want: list[np.ndarray], rtol: float, name: str) -> None:
    assert len(got) == len(want), name
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        w = np.asarray(w)
        assert g.shape == w.shape, (name, i, g.shape, w.shape)
        if rtol == 0.0:
            np.testing.assert_array_equal(g, w.astype(g.dtype), err_msg=f"{name}: output {i}")
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, err_msg=f"{name}: output {i}")


def _llvm(asm: Any) -> str:
    return asm.llvm if hasattr(asm, "llvm") else asm.llvm_ir  # type: ignore[no-any-return]


@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_cpu_executor_gives_the_reference_values(program: Program) -> None:
    assert_close(program.run(sk.Device.cpu()), program.reference(), program.rtol, program.name)


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
@pytest.mark.parametrize("program", PROGRAMS, ids=str)
def test_the_gpu_compiler_assembles_it(program: Program, arch: str) -> None:
    asm = program.assemble(arch)
    assert asm.cubin, f"nvJitLink returned no cubin for {program.name} on {arch}"
    for pattern in program.folded if arch == "sm_90a" else ():
        assert re.search(pattern, _llvm(asm)), (program.name, pattern, stores(_llvm(asm))[:4])


def _located(exc: DiagnosticError) -> tuple[str, str]:
    """(SK code, `file:line:col`) of the first diagnostic."""
    found = re.match(r"^(?P<where>.+?:\d+:\d+): (?P<code>SK\d{3})", str(exc))
    assert found, str(exc)
    return found.group("code"), found.group("where")


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
@pytest.mark.parametrize("refusal", REFUSALS, ids=str)
def test_both_executors_refuse_alike(refusal: Refusal, arch: str) -> None:
    with pytest.raises(DiagnosticError) as on_cpu:
        refusal.run(sk.Device.cpu())
    with pytest.raises(DiagnosticError) as on_gpu:
        refusal.assemble(arch)
    cpu, gpu = _located(on_cpu.value), _located(on_gpu.value)
    assert cpu == gpu, (refusal.name, str(on_cpu.value), str(on_gpu.value))
    assert cpu[0] == refusal.code, str(on_cpu.value)
    path, line, _col = cpu[1].rsplit(":", 2)
    with open(path) as f:
        assert refusal.line_text in f.read().splitlines()[int(line) - 1], (refusal.name, cpu[1])


@pytest.mark.parametrize("arch", ["sm_90a", "sm_80"])
def test_a_run_time_range_step_of_zero_traps_on_both(arch: str) -> None:
    from fresh_tile_programs import runtime_step

    from safekernels import tile
    from safekernels.dtypes import i32
    from safekernels.errors import KernelTrapError

    stream = sk.Device.cpu().new_stream()
    with pytest.raises(KernelTrapError, match="`range` step of zero"):
        runtime_step(tile.zeros((16,), i32).partition((8,)), 0).sync_on(stream)
    ptx = runtime_step.inspect(tile.zeros((16,), i32).partition((8,)), 0, arch=arch)["ptx"]
    assert "trap;" in ptx
