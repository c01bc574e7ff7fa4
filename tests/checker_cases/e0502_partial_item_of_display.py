"""A `functools.partial` of a launch kept in a list display (`cbs = [partial(relu.launch, prep, stream)]`), or in
the list a helper returns, then called through an item bound to a name (`last = cbs[0]`, `on_end = built[-1]`):
the call runs the launch with the bound arguments first, so one buffer passed twice is its input and its
output."""

from functools import partial
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def relu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], 0.0))


def build(dev: sk.Device, stream: sk.Stream) -> list[Any]:
    prep = relu.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    return [partial(relu.launch, prep, stream), partial(relu.launch, prep, stream)]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = relu.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    x = sk.to_device(np.ones(32, np.float32), stream)
    y = sk.zeros(32, f32, stream)
    cbs = [partial(relu.launch, prep, stream)]
    last = cbs[0]
    last(x, y)
    last(x, x)  # expect: E0502
    built = build(dev, stream)
    on_end = built[-1]
    on_end(y, x)
    on_end(y, y)  # expect: E0502


if __name__ == "__main__":
    main()
