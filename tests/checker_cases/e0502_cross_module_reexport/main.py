"""`vecadd` reaches this module through the package's re-export."""

import numpy as np

import safekernels as sk
from gpu import vecadd
from safekernels import simt
from safekernels.dtypes import f32


def main(n: int) -> None:
    dev = sk.Device(0)
    stream = dev.new_stream()
    a = sk.to_device(np.ones(n, dtype=np.float32), stream)
    c = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    vecadd.launch(prepared, stream, a, c, c)  # expect: E0502
