"""Vector addition in the SIMT track: c[i] = a[i] + b[i], checked against numpy.

Runs on the GPU when one is present, else on the CPU executor (`SAFEKERNELS_DEVICE=cpu|gpu` forces the
choice)."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256, requires=("len(a) >= len(c)", "len(b) >= len(c)"))
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = (1 << 24) if dev.is_gpu else 100_003  # not a multiple of the block on the CPU executor
    rng = np.random.default_rng(0)
    a_host = rng.random(n, dtype=np.float32)
    b_host = rng.random(n, dtype=np.float32)
    a = sk.to_device(a_host, stream)
    b = sk.to_device(b_host, stream)
    c = sk.zeros(n, f32, stream)
    launch = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch(launch, stream, a, b, c)
    result = c.to_numpy(stream)
    np.testing.assert_array_equal(result, a_host + b_host)
    print(
        f"vecadd_simt: c = a + b over {n} f32 elements on {dev!r} ({launch.grid[0]} blocks of 256), "
        f"c[:3] = {result[:3]}"
    )
    print("PASSED")


if __name__ == "__main__":
    main()
