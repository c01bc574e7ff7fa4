"""A read at a computed index that is an arm of a conditional expression (`src = raw if p == 0 else
bufs[(p - 1) % 2]`) is compared with a later read of the same container like a read that is the whole value:
`(p - 1) % 2` and `(p + 1) % 2` are always the same number, so from the second pass on the launch reads and writes
one buffer (E0502, as the runtime finds)."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := dst.get_mut(thread.index_1d())) is not None:
        o.set(src[i] * f32(0.5))


class Smoother:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = smooth.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
        self.bufs = [sk.zeros(32, f32, stream), sk.zeros(32, f32, stream)]

    def run(self, raw: sk.DeviceBuffer, passes: int) -> None:
        for p in range(passes):
            src = raw if p == 0 else self.bufs[(p - 1) % 2]
            dst = self.bufs[(p + 1) % 2]
            smooth.launch(self.prepared, self.stream, src, dst)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Smoother(dev, stream).run(sk.zeros(32, f32, stream), 3)


if __name__ == "__main__":
    main()
