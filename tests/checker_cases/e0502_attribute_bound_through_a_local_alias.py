"""A smoother names its buffers object by a short local (`b = self.bufs`) and, in place mode, binds `b.out` to
the input buffer.  `b` and `self.bufs` are one object, so `self.bufs.out` is `self.bufs.src` too: the launch
reading `src` and writing `out` gets one buffer as both (E0502, as the runtime's `BorrowError` says)."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def smooth(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * 0.5)


@dataclass
class Buffers:
    src: sk.DeviceBuffer
    out: sk.DeviceBuffer


class Smoother:
    def __init__(self, dev: sk.Device, stream: sk.Stream, in_place: bool) -> None:
        self.stream = stream
        self.bufs = Buffers(sk.to_device(np.ones(N, np.float32), stream), sk.zeros(N, f32, stream))
        self.prepared = smooth.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
        self.in_place = in_place

    def run(self) -> None:
        b = self.bufs
        if self.in_place:
            b.out = b.src
        smooth.launch(self.prepared, self.stream, self.bufs.src, self.bufs.out)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Smoother(dev, stream, in_place=True).run()


if __name__ == "__main__":
    main()
