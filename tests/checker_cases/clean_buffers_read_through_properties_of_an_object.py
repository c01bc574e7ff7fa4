"""A ping-pong pair keeps its two fields as `[sk.zeros(n) for _ in range(2)]`: two buffers.  The stepping code
outside the class reads them through the `src` and `dst` properties (`self.fields[self.t % 2]` and the other
index), so the launch reading `src` and writing `dst` gets two buffers: clean."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def diffuse(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 0.5)


class PingPong:
    def __init__(self, stream: sk.Stream) -> None:
        self.fields = [sk.zeros(N, f32, stream) for _ in range(2)]
        self.t = 0

    @property
    def src(self) -> sk.DeviceBuffer:
        return self.fields[self.t % 2]

    @property
    def dst(self) -> sk.DeviceBuffer:
        return self.fields[(self.t + 1) % 2]

    def flip(self) -> None:
        self.t += 1


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    pp = PingPong(stream)
    pp.src.copy_from_numpy(np.ones(N, np.float32), stream)
    prepared = diffuse.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    for _ in range(3):
        diffuse.launch(prepared, stream, pp.src, pp.dst)
        pp.flip()
    print(pp.src.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
