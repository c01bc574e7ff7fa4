"""On the GPU: each class of CPU/GPU disagreement found by independent programs (`regression_kernels`) gives
the CPU executor's result, and a tile index past the last tile traps on every load form.

Run on the device machine: `PYTHONPATH=src:. python3 -m pytest -m gpu tests/parity`.  A trap ends the CUDA
context, so each trap runs in a subprocess.  Imports neither libcst nor mypy.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
import regression_kernels as rk

import safekernels as sk

pytestmark = pytest.mark.gpu

ROOT = Path(__file__).resolve().parents[2]


def _ulp_close(got: np.ndarray, want: np.ndarray, ulps: int) -> None:
    g, w = got.astype(np.float64), want.astype(np.float64)
    tol = ulps * np.spacing(np.abs(want).astype(want.dtype)).astype(np.float64)
    assert (np.abs(g - w) <= tol).all(), (g[np.abs(g - w) > tol][:5], w[np.abs(g - w) > tol][:5])


@pytest.mark.parametrize("name", sorted(rk.CASES))
def test_gpu_gives_the_cpu_executors_result(name: str) -> None:
    want = rk.CASES[name](sk.Device.cpu())
    got = rk.CASES[name](sk.Device(0))
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.dtype == w.dtype, (name, i, g.dtype, w.dtype)
        if name == "matmuls":  # another summation order
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"{name} output {i}")
        elif name == "typing_rules" and i == 0:  # math.exp: libdevice vs f64-rounded, within 4 ulp
            _ulp_close(g, w, 4)
        else:  # integer, data movement, butterfly-ordered warp sums, correctly rounded f32/f16/bf16
            np.testing.assert_array_equal(g, w, err_msg=f"{name} output {i}")


def test_partial_warp_matches_the_documented_model_on_the_gpu() -> None:
    rng = np.random.default_rng(80)
    a = rng.uniform(-2, 2, rk.N_WARP).astype(np.float32)
    k = rng.integers(-50, 50, rk.N_WARP).astype(np.int32)
    out, ints = rk.run_partial_warp(sk.Device(0))
    want_out, want_ints = rk.partial_warp_reference(a, k)
    np.testing.assert_allclose(out, want_out, rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(ints, want_ints)


_FORMS = {
    "x.load": "x.load((tile.bid(0) + 1,), (64,))",
    "x.partition.load": "x.partition((64,)).load((tile.bid(0) + 1,))",
    "x.load(negative)": "x.load((tile.bid(0) - 1,), (64,))",
    "load_like(short x)": "tile.load_like(x, z)",
    "2-D x.load": "x.load((tile.bid(0), tile.bid(1) + 2), (16, 16))",
}

_SCRIPT = """
import sys
sys.path.insert(0, {folder!r})
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.errors import KernelTrapError
from trap_kernel import shifted
rank = {rank}
dev = sk.Device(0)
shape, tile_shape, x_shape = ((128,), (64,), {x_shape}) if rank == 1 else ((32, 32), (16, 16), (32, 32))
try:
    shifted(tile.zeros(shape, f32, device=dev).partition(tile_shape), tile.zeros(x_shape, f32, device=dev)).sync_on(
        dev.new_stream()
    )
except KernelTrapError as exc:
    print("TRAPPED", exc)
    sys.exit(0)
print("NO TRAP")
sys.exit(1)
"""


@pytest.mark.parametrize("form", sorted(_FORMS))
def test_tile_index_past_the_last_tile_traps_on_the_gpu(form: str, tmp_path: Path) -> None:
    rank = 2 if form.startswith("2-D") else 1
    (tmp_path / "trap_kernel.py").write_text(
        "from safekernels import tile\nfrom safekernels.dtypes import f32\n"
        "from safekernels.tile import Partition, Tensor\n\n\n"
        + ('@tile.kernel(independent_shapes=("x",))\n' if form == "load_like(short x)" else "@tile.kernel\n")
        + f"def shifted(z: Partition[f32], x: Tensor[f32]) -> None:\n    z.store({_FORMS[form]})\n"
    )
    x_shape = "(64,)" if form == "load_like(short x)" else "(128,)"
    script = textwrap.dedent(_SCRIPT.format(folder=str(tmp_path), rank=rank, x_shape=x_shape))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
        env={**__import__("os").environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"},
    )  # fmt: skip
    assert done.returncode == 0 and "TRAPPED" in done.stdout, done.stdout + done.stderr
