"""The clean twin of `e0502_computed_index_in_a_conditional_arm`: the output is `bufs[p % 2]`, never the buffer
`bufs[(p - 1) % 2]` the pass reads, so the ping-pong passes are fine."""

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
            dst = self.bufs[p % 2]
            smooth.launch(self.prepared, self.stream, src, dst)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    Smoother(dev, stream).run(sk.zeros(32, f32, stream), 3)


if __name__ == "__main__":
    main()
