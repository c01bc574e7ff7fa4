"""The GPU's own LLVM IR of the second-batch SIMT programs, run on the host, gives the CPU executor's values.

`tests/codegen/host_jit.py` retargets a kernel's NVPTX IR to the host and runs it one thread at a time: what the
lowering computes, checked without a GPU. It runs kernels without barriers, warp shuffles, libdevice calls, device
print or f16/bf16 (those need threads together or helpers the JIT lacks: the GPU tests check them); the list below is
every program of the batch it can run, and the test checks that the others are exactly the ones it refuses.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from fresh2_simt_programs import LAUNCHES, PROGRAMS

import safekernels as sk
from safekernels import simt
from safekernels.runtime.buffer import DeviceBuffer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codegen"))
from host_jit import HostKernel, Unsupported  # type: ignore[import-not-found]

HOST_RUNNABLE = [
    "simt2: 2-D launch, odd block (7, 5), index_2d transpose",
    "simt2: grid-stride loop",
    "simt2: every atomic kind with orders and scopes",
    "simt2: compare-exchange loops (i64 multiply, f32 max by magnitude)",
    "simt2: i8/u8/i16/u16 storage and wrap-around",
    "simt2: requires contract over lengths and a u32",
    "simt2: launch_unchecked of a kernel without a contract",
    "simt2: u64 wrap-around, shifts and division",
    "simt2: grid-stride loop over a 2-D grid with continue",
    "simt2: bool buffers and truth values of floats",
]


def _host_run(name: str) -> list[np.ndarray]:
    kernel, config, make_args, outputs, unchecked = LAUNCHES[name]
    stream = sk.Device.cpu().new_stream()
    args = [a.to_numpy(stream) if isinstance(a, DeviceBuffer) else a for a in make_args(stream)]
    host = HostKernel(kernel, assume_requires=not unchecked)
    if isinstance(config, simt.LaunchConfig1D):
        result = host.run(args, config.grid * config.block, block=config.block)
    else:
        assert isinstance(config, simt.LaunchConfig2D)
        (gx, gy), (bx, by) = config.grid, config.block
        result = host.run(args, gx * bx, block=bx, grid_y=gy, block_y=by)
    assert result.trapped == [], f"{name}: threads {result.trapped[:5]} trapped"
    return [result.arrays[i] for i in outputs]


@pytest.mark.parametrize("name", HOST_RUNNABLE)
def test_the_gpu_ir_on_the_host_gives_the_cpu_executors_values(name: str) -> None:
    program = next(p for p in PROGRAMS if p.name == name)
    want = program.run(sk.Device.cpu())
    got = _host_run(name)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.dtype == w.dtype and g.shape == w.shape, (name, i)
        if program.rtol == 0.0:
            np.testing.assert_array_equal(g, w, err_msg=f"{name}: output {i}")
        else:
            np.testing.assert_allclose(g, w, rtol=program.rtol, atol=program.rtol, err_msg=f"{name}: output {i}")


def test_the_host_runner_refuses_exactly_the_other_programs() -> None:
    refused: list[str] = []
    for name, (kernel, config, _make, _outputs, unchecked) in LAUNCHES.items():
        if isinstance(config, simt.LaunchConfig3D):
            refused.append(name)  # the runner has no z axis
            continue
        try:
            HostKernel(kernel, assume_requires=not unchecked)
        except (Unsupported, RuntimeError):  # RuntimeError: IR it cannot retarget (a device print's strings)
            refused.append(name)
    assert sorted(set(LAUNCHES) - set(refused)) == sorted(HOST_RUNNABLE)
