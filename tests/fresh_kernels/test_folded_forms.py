"""The GPU's value of each constant form, read from the sm_90a LLVM IR LLVM folded, equals the CPU executor's.

Bitwise for integers and floats alike (signed zeros and NaN included): these forms are exact on both executors
(docs/numerics.md).
"""

from __future__ import annotations

import numpy as np
import pytest
from fresh_folded_forms import FORMS, kernel, llvm_stores

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import dtype_of

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")


def _out(dt: str) -> object:
    return tile.zeros((8,), dtype_of(dt)).partition((8,))


@pytest.mark.parametrize("name", list(FORMS))
def test_the_folded_gpu_value_is_the_cpu_executors(name: str) -> None:
    dt = FORMS[name][0]
    stream = sk.Device.cpu().new_stream()
    (out,) = kernel(name)(_out(dt)).sync_on(stream)
    cpu = out.unpartition().to_numpy(stream)
    llvm = kernel(name).inspect(_out(dt), arch="sm_90a")["llvm"]
    folded = llvm_stores(llvm, dt)
    assert len(folded) == 8, f"{name}: LLVM did not fold the stored value\n" + "\n".join(
        line for line in llvm.splitlines() if "store" in line
    )
    gpu = np.array(folded, dtype=np.float64 if cpu.dtype.kind == "f" or dt == "bf16" else np.int64)
    cpu_values = cpu.astype(np.float64) if gpu.dtype.kind == "f" else cpu.astype(np.int64)
    same = (gpu == cpu_values) | (np.isnan(gpu) & np.isnan(cpu_values)) if gpu.dtype.kind == "f" else gpu == cpu_values
    if gpu.dtype.kind == "f":  # signed zeros count; a NaN's sign bit does not
        same &= (np.signbit(gpu) == np.signbit(cpu_values)) | np.isnan(gpu)
    assert same.all(), f"{name}: GPU (folded) {gpu.tolist()} vs CPU {cpu_values.tolist()}"
