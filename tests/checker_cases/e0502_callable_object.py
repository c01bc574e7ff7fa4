"""A callable object: an instance of the module's class called as `scaler(src, dst)` runs the class's `__call__`
on that object, so a call handing one buffer as both its input and its output reads and writes one buffer (E0502
at the call, as rustc reports a conflict a call's arguments make), also for an object a loop takes from a display
of them."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


class Scaler:
    def __init__(self, prepared: Any, stream: Any, alpha: float) -> None:
        self.prepared = prepared
        self.stream = stream
        self.alpha = alpha

    def __call__(self, src: Any, dst: Any) -> None:
        scale.launch(self.prepared, self.stream, src, dst, self.alpha)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.zeros(64, f32, stream)
    scaler = Scaler(prep, stream, 0.5)
    scaler(a, b)
    scaler(b, b)
    for step in [Scaler(prep, stream, 2.0), Scaler(prep, stream, 3.0)]:
        step(a, b)
        step(a, a)  # expect: E0502


if __name__ == "__main__":
    main()
