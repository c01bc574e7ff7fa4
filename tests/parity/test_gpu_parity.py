"""On the GPU: the parity rule's second half, results.  The fixed new-op kernels (`new_op_kernels`), every
corpus tile kernel the CPU executor runs without a trap, and a batch of random kernels over the op set run on
the GPU and on the CPU executor with the same inputs; the results must agree (integers exactly, floats within
the rounding of their dtype; float atomics and reductions may add in another order on the GPU).

Run on the device machine: `PYTHONPATH=src:. python3 -m pytest tests/parity -m gpu`.  Imports neither libcst
nor mypy.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import TypeVar

import numpy as np
import pytest
from kernel_corpus import collect, run_on, run_on_cpu, tile_candidates
from new_op_kernels import CASES
from random_kernels import launch, load, source, write

import safekernels as sk

pytestmark = pytest.mark.gpu

TILES, _SIMTS, _SKIPPED = collect()

#: The first test whose kernel faulted: the CUDA context is unusable after a GPU trap, so later tests skip with
#: its name instead of failing for a reason that is not theirs (the faulting test itself fails).
_CONTEXT_LOST: list[str] = []
T = TypeVar("T")
TOLERANCE = {"f16": 2e-2, "bf16": 5e-2, "f8e4m3": 0.15, "f8e5m2": 0.3, "f32": 2e-4, "f64": 1e-9}


@pytest.fixture(autouse=True)
def _stop_after_a_fault() -> None:
    if _CONTEXT_LOST:
        pytest.skip(f"the CUDA context was lost in {_CONTEXT_LOST[0]}")


def _on_gpu(run: Callable[[], T], what: str) -> T:
    from safekernels.errors import DeviceError

    try:
        return run()
    except DeviceError:
        _CONTEXT_LOST.append(what)
        raise


def _compare(got: np.ndarray, want: np.ndarray, what: str) -> None:
    if got.dtype.kind in "iub":
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    g, w = got.astype(np.float64), want.astype(np.float64)
    tol = TOLERANCE.get({np.dtype(np.float16): "f16", np.dtype(np.float32): "f32"}.get(got.dtype, "f32"), 2e-4)
    if got.dtype == np.uint16 or got.dtype == np.uint8:  # bit patterns: compare exactly
        np.testing.assert_array_equal(got, want, err_msg=what)
        return
    np.testing.assert_allclose(g, w, rtol=tol, atol=tol * max(1.0, float(np.abs(w).max(initial=0.0))), err_msg=what)


@pytest.mark.parametrize("name", sorted(CASES))
def test_new_op_kernel_gives_the_cpu_result_on_the_gpu(name: str) -> None:
    want = CASES[name](sk.Device.cpu())
    got = _on_gpu(functools.partial(CASES[name], sk.Device(0)), name)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        _compare(g, w, f"{name} output {i}")


@pytest.mark.parametrize("found", TILES, ids=[f.where for f in TILES])
def test_corpus_kernel_gives_the_cpu_result_on_the_gpu(found: object) -> None:
    kernel = found.kernel  # type: ignore[attr-defined]
    ran = 0
    for cand in tile_candidates(kernel):
        verdict, detail = run_on_cpu(kernel, cand)
        if verdict != "accept" or detail == "trap":  # a trap would end the GPU context for later tests
            continue
        want = run_on(kernel, cand, sk.Device.cpu())
        got = _on_gpu(functools.partial(run_on, kernel, cand, sk.Device(0)), found.where)  # type: ignore[attr-defined]
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            _compare(g, w, f"{found.where} tensor argument {i} for {cand}")  # type: ignore[attr-defined]
        ran += 1
        if ran == 2:
            break
    if ran == 0:
        pytest.skip("no specialization the CPU runs without a trap")


@pytest.mark.parametrize("seed", range(40))
def test_random_kernel_gives_the_cpu_result_on_the_gpu(seed: int) -> None:
    text = source(random.Random(seed), gpu_exact=True)
    module = load(write(text))
    z_cpu, hist_cpu = launch(module, sk.Device.cpu(), seed)
    z_gpu, hist_gpu = _on_gpu(lambda: launch(module, sk.Device(0), seed), f"random kernel {seed}")
    np.testing.assert_array_equal(hist_gpu, hist_cpu, err_msg=text)
    np.testing.assert_allclose(z_gpu, z_cpu, rtol=1e-3, atol=1e-3, err_msg=text)
