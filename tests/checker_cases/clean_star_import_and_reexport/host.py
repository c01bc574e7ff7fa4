"""The star-imported kernel launched with distinct input and output buffers."""

import numpy as np

import safekernels as sk
from pkg import *  # noqa: F403
from safekernels.simt import *  # noqa: F403
from safekernels.dtypes import f32


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(1000, dtype=np.float32), stream)
    c = sk.zeros(1000, f32, stream)
    prepared = vecadd.prepare(LaunchConfig1D.for_len(1000, block=256), dev)  # noqa: F405
    vecadd.launch(prepared, stream, a, a, c)
