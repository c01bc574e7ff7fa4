"""The GPU's value of each SIMT constant form, read from the PTX store's immediate, equals the CPU executor's.

Bitwise (signed zeros count). A form LLVM folds to poison leaves no store in the PTX: the GPU would not write the
output at all.
"""

from __future__ import annotations

import math

import pytest
from fresh_simt_folded_forms import KERNELS, NAMES, ptx_stored

import safekernels as sk
from safekernels import simt
from safekernels.codegen.pipeline import compile_simt_kernel
from safekernels.dtypes import f64, i64

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


@pytest.mark.parametrize(("name", "dt", "expr"), NAMES, ids=[f"{dt}({expr})" for _, dt, expr in NAMES])
def test_the_folded_gpu_value_is_the_cpu_executors(name: str, dt: str, expr: str) -> None:
    kernel = getattr(KERNELS, name)
    device = sk.Device.cpu()
    stream = device.new_stream()
    out = sk.zeros(1, i64 if dt == "i64" else f64, stream)
    kernel.launch(kernel.prepare(simt.LaunchConfig1D.for_len(1, block=32), device), stream, out)
    cpu = out.to_numpy(stream)[0].item()
    ptx = compile_simt_kernel(kernel, arch="sm_90", use_cache=False).ptx
    gpu = ptx_stored(ptx, dt)
    assert gpu is not None, f"{expr}: no store of a constant in the PTX (folded to poison?)\n{ptx[-600:]}"
    assert gpu == cpu, f"{expr}: GPU (folded) {gpu!r}, CPU executor {cpu!r}"
    if dt == "f64":
        assert math.copysign(1.0, gpu) == math.copysign(1.0, cpu), f"{expr}: sign of zero"
