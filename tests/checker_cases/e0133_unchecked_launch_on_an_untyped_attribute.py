"""A launcher object keeps the kernel it was built with in an attribute typed `Any` (`self.kernel = kernel`) and
its `fire` method calls `self.kernel.launch_unchecked(...)` without an unsafe block of its own.  The caller's
`with simt.unsafe():` around `launcher.fire(...)` does not count: unsafe is lexical, and the runtime raises in
`fire` (E0133).  mypy calls no hook for a method call on `Any`, so the plugin starts the method's analysis from
the call of `fire` instead."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def blend(gyro: Slice[f32], angle: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (a := angle.get_mut(idx)) is not None:
        a.set(alpha * a.get() + (1.0 - alpha) * gyro[i])


class FastLauncher:
    def __init__(self, kernel: Any, dev: sk.Device, stream: sk.Stream) -> None:
        self.kernel = kernel
        self.stream = stream
        self.config = simt.LaunchConfig1D.for_len(N, block=32)
        kernel.prepare(self.config, dev)  # validated once

    def fire(self, *args: Any) -> None:
        self.kernel.launch_unchecked(self.config, self.stream, *args)  # expect: E0133


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    gyro = sk.to_device(np.ones(N, np.float32), stream)
    angle = sk.zeros(N, f32, stream)
    launcher = FastLauncher(blend, dev, stream)
    with simt.unsafe():
        launcher.fire(gyro, angle, 0.9)
    print(angle.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
