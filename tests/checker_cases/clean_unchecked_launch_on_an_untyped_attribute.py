"""The clean twin of `e0133_unchecked_launch_on_an_untyped_attribute`: the launcher's `fire` method opens its own
`with simt.unsafe():` around `self.kernel.launch_unchecked(...)`, so the unchecked launch is inside an unsafe
block where it is written."""

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
        with simt.unsafe():
            self.kernel.launch_unchecked(self.config, self.stream, *args)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    gyro = sk.to_device(np.ones(N, np.float32), stream)
    angle = sk.zeros(N, f32, stream)
    launcher = FastLauncher(blend, dev, stream)
    launcher.fire(gyro, angle, 0.9)
    print(angle.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
