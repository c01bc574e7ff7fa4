"""The GPU's own LLVM IR of the third-batch SIMT programs, run on the host, gives the CPU executor's values.

`tests/codegen/host_jit.py` retargets a kernel's NVPTX IR to the host and runs it one thread at a time (what the
lowering computes, checked without a GPU). It runs no barriers, warp collectives, libdevice calls, f16/bf16 or
3-D launches: the GPU tests check those programs; the list below is every program of the batch it can run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from fresh3_simt_programs import LAUNCHES, PROGRAMS

import safekernels as sk
from safekernels import simt
from safekernels.runtime.buffer import DeviceBuffer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "codegen"))
from host_jit import HostKernel  # type: ignore[import-not-found]

HOST_RUNNABLE = [
    "simt3: chained comparisons of i32/i64 with f32 bounds, an atomic as the middle operand",
    "simt3: 2-D for_shape launch with partial blocks on both axes, i16 products wrap",
    "simt3: grid-stride while loop with an inner while True / break (Collatz, u64)",
    "simt3: FNV-1a 64-bit hash, u64 multiply wraps",
    "simt3: xorshift32 and xorshift64* (u32/u64 shifts, a u64 multiplier above 2**63)",
    "simt3: shifts by run-time counts past the width (u8, i16, u64, i64)",
    "simt3: inf/nan/-0.0 through min, max, abs, copysign and comparisons (f32, f64)",
    "simt3: atomics on i32/u32/i64/u64/f32/f64 (add, max, min, or, xor, exchange, CAS, u32 wrap)",
    "simt3: // and % across widths and signs, i16 MIN // -1 wraps, u16 product wraps, int / int",
    "simt3: reverse range loop with continue and break",
    "simt3: short-circuit or/and with an atomic on the right, a walrus in a condition",
    "simt3: narrow accumulators wrap (u8 sum, i8 product), u32 negation, ~u16, u32 + i32 -> i64",
    "simt3: locals and helper returns of joined types, annotated helper parameters, a u8 accumulator",
    "simt3: stores and atomics of wider ints into narrower elements wrap, an f64 exchanged into f32 rounds",
    "simt3: int() and float() in a kernel (i64 saturating, f64)",
    "simt3: math.* of ints is f64, abs of i8 -128 wraps, min(u8, i8) is i16",
]


@pytest.mark.parametrize("name", HOST_RUNNABLE)
def test_the_gpu_ir_on_the_host_gives_the_cpu_executors_values(name: str) -> None:
    kernel, config, make_args, outputs = LAUNCHES[name]
    program = next(p for p in PROGRAMS if p.name == name)
    want = program.run(sk.Device.cpu())
    stream = sk.Device.cpu().new_stream()
    args = [a.to_numpy(stream) if isinstance(a, DeviceBuffer) else a for a in make_args(stream)]
    host = HostKernel(kernel, assume_requires=True)
    if isinstance(config, simt.LaunchConfig1D):
        result = host.run(args, config.grid * config.block, block=config.block)
    else:
        assert isinstance(config, simt.LaunchConfig2D)
        (gx, gy), (bx, by) = config.grid, config.block
        result = host.run(args, gx * bx, block=bx, grid_y=gy, block_y=by)
    assert result.trapped == [], f"{name}: threads {result.trapped[:5]} trapped"
    for i, (g, w) in enumerate(zip([result.arrays[k] for k in outputs], want, strict=True)):
        assert g.dtype == w.dtype and g.shape == w.shape, (name, i)
        np.testing.assert_array_equal(g, w, err_msg=f"{name}: output {i}")
