"""A method that moves an attribute its class binds to a device value (`return self.soc.to(dev, stream)`) hands
back the moved buffer: a caller that binds the attribute to what it returns launches the new buffer, which is
no use after move."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def decay(src: Slice[f32], dst: DisjointSlice[f32], rate: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * rate)


class Pack:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.soc = sk.to_device(np.ones(N, np.float32), stream)
        self.scratch = sk.zeros(N, f32, stream)
        self.prepared = decay.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def step(self) -> None:
        decay.launch(self.prepared, self.stream, self.soc, self.scratch, 0.99)
        self.soc, self.scratch = self.scratch, self.soc

    def moved_to(self, dev: sk.Device, stream: sk.Stream) -> sk.DeviceBuffer:
        return self.soc.to(dev, stream)


def main() -> None:
    home = sk.Device.cpu(0)
    pack = Pack(home, home.new_stream())
    pack.step()
    pack.soc = pack.moved_to(home, pack.stream)
    pack.step()
    print(pack.soc.to_numpy(pack.stream)[:2])


if __name__ == "__main__":
    main()
