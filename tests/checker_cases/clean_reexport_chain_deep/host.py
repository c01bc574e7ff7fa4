"""The deeply re-exported kernel launched with distinct buffers."""

import numpy as np

import safekernels as sk
from m15 import vecadd
from safekernels import simt
from safekernels.dtypes import f32


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    c = sk.zeros(1000, f32, stream)
    p = vecadd.prepare(simt.LaunchConfig1D.for_len(1000, block=256), dev)
    vecadd.launch(p, stream, a, a, c)
