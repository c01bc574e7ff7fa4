"""An object built and called on one line (`Scaler(prep, stream)(x, bias, x)`) runs its class's `__call__`
there: handed one buffer as input and output, the call is an aliasing launch."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Scaler:
    def __init__(self, prep: Any, stream: Any) -> None:
        self.prep = prep
        self.stream = stream

    def __call__(self, src: Any, bias: Any, dst: Any) -> None:
        vecadd.launch(self.prep, self.stream, src, bias, dst)  # expect: E0502


def run(dev: sk.Device, stream: sk.Stream) -> None:
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    x = sk.to_device(np.ones(64, np.float32), stream)
    bias = sk.zeros(64, f32, stream)
    Scaler(prep, stream)(x, bias, x)


if __name__ == "__main__":
    device = sk.Device.cpu()
    run(device, device.new_stream())
