"""`self.soc.to(dev, stream)` moves the buffer (unlike `torch.Tensor.to`): a method that does it to an attribute
its class binds to a new device value (`self.soc = sk.to_device(...)`) moves the caller's `pack.soc`, even after
another method swapped that attribute with a second device buffer, so the next launch of it is a use after move."""

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
        decay.launch(self.prepared, self.stream, self.soc, self.scratch, 0.99)  # expect: E0382
        self.soc, self.scratch = self.scratch, self.soc

    def snapshot(self, dev: sk.Device, stream: sk.Stream) -> sk.DeviceBuffer:
        return self.soc.to(dev, stream)


def main() -> None:
    home, other = sk.Device.cpu(0), sk.Device.cpu(1)
    pack = Pack(home, home.new_stream())
    pack.step()
    copy = pack.snapshot(other, other.new_stream())
    print(copy.to_numpy(other.new_stream())[:2])
    pack.step()


if __name__ == "__main__":
    main()
