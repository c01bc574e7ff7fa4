"""`launch_unchecked` of a kernel from another module still needs `unsafe`."""

import numpy as np

import safekernels as sk
from kernels import scale
from safekernels import simt
from safekernels.dtypes import f32


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    src = sk.to_device(np.ones(n, dtype=np.float32), stream)
    dst = sk.zeros(n, f32, stream)
    config = simt.LaunchConfig1D.for_len(n, block=128)
    with simt.unsafe():
        scale.launch_unchecked(config, stream, src, dst, 2.0)
    scale.launch_unchecked(config, stream, src, dst, 3.0)  # expect: E0133
