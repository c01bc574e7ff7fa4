"""Both kernels come from another module; the launch of `scale` uses `vecadd`'s prepared launch."""

import numpy as np

import kernels
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    src = sk.to_device(np.ones(n, dtype=np.float32), stream)
    dst = sk.zeros(n, f32, stream)
    plan = kernels.vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    kernels.scale.launch(plan, stream, src, dst, 2.0)  # expect: E0308
