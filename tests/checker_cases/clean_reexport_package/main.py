"""Kernels used through the package, each with its own prepared launch, distinct buffers everywhere."""

import numpy as np

import gpu
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.to_device(np.ones(n, dtype=np.float32), stream)
    b = sk.to_device(np.ones(n, dtype=np.float32), stream)
    c = sk.zeros(n, f32, stream)
    d = sk.zeros(n, f32, stream)
    add_plan = gpu.vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    scale_plan = gpu.scale.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    gpu.vecadd.launch(add_plan, stream, a, b, c)
    gpu.scale.launch(scale_plan, stream, c, d, 0.5)
    print(d.to_numpy(stream))
