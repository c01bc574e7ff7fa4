"""SAXPY in the SIMT track: y[i] = alpha * x[i] + y0[i] with a scalar kernel parameter, checked against numpy.

Runs on the GPU when one is present, else on the CPU executor (`SAFEKERNELS_DEVICE=cpu|gpu` forces the
choice)."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256, requires=("len(x) >= n", "len(y0) >= n", "len(y) >= n"))
def saxpy(alpha: f32, x: Slice[f32], y0: Slice[f32], y: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (out := y.get_mut(idx)) is not None:
        out.set(alpha * x[i] + y0[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = (1 << 24) if dev.is_gpu else 77_777
    alpha = 2.5
    rng = np.random.default_rng(1)
    x_host = rng.standard_normal(n, dtype=np.float32)
    y0_host = rng.standard_normal(n, dtype=np.float32)
    x = sk.to_device(x_host, stream)
    y0 = sk.to_device(y0_host, stream)
    y = sk.zeros(n, f32, stream)
    launch = saxpy.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    saxpy.launch(launch, stream, alpha, x, y0, y, n)
    result = y.to_numpy(stream)
    expected = np.float32(alpha) * x_host + y0_host
    np.testing.assert_allclose(result, expected, rtol=1e-6, atol=1e-6)  # the GPU may fuse into an FMA
    print(
        f"saxpy_simt: y = {alpha} * x + y0 over {n} f32 elements on {dev!r}, max |err| = "
        f"{float(np.max(np.abs(result - expected))):.3g}"
    )
    print("PASSED")


if __name__ == "__main__":
    main()
