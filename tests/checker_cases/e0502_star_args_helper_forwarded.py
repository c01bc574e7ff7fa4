"""A helper taking its buffers as `*args` and forwarding them to a launch (`relu.launch(prep, stream, *bufs)`, or
item by item, `bufs[0], bufs[1]`): the tuple's items are the call's extra positional arguments, in order, so one
buffer passed twice is the launch's input and its output."""

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


def run(prep: simt.PreparedLaunch, stream: sk.Stream, *bufs: sk.DeviceBuffer[f32]) -> None:
    relu.launch(prep, stream, *bufs)  # expect: E0502


def run_items(prep: simt.PreparedLaunch, stream: sk.Stream, *bufs: sk.DeviceBuffer[f32]) -> None:
    relu.launch(prep, stream, bufs[0], bufs[1])  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = relu.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    x = sk.to_device(np.ones(32, np.float32), stream)
    y = sk.zeros(32, f32, stream)
    run(prep, stream, x, y)
    run_items(prep, stream, y, x)
    run_items(prep, stream, x, x)
    run(prep, stream, x, x)


if __name__ == "__main__":
    main()
