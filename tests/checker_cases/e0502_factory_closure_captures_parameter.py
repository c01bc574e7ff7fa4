"""A function factory returns a closure that launches with the factory's parameter (`acc = make_acc(prep, stream,
x)`): each call of the closure borrows the object the factory's call passed, so `acc(x)` passes `x` as the
launch's input (captured) and as its output."""

from collections.abc import Callable

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


def make_acc(
    prep: simt.PreparedLaunch, stream: sk.Stream, total: sk.DeviceBuffer[f32]
) -> Callable[[sk.DeviceBuffer[f32]], None]:
    def acc(into: sk.DeviceBuffer[f32]) -> None:
        relu.launch(prep, stream, total, into)  # expect: E0502

    return acc


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = relu.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    x = sk.to_device(np.ones(32, np.float32), stream)
    y = sk.zeros(32, f32, stream)
    acc = make_acc(prep, stream, x)
    acc(y)
    acc(x)


if __name__ == "__main__":
    main()
