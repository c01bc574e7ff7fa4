"""A method carves two planes of one state buffer into locals and returns them as a tuple (`re = buf.view(...)`,
`im = buf.view(...)`, `return re, im`); the imaginary plane forgets the header and starts at `self.dim`, one element
before the real plane ends at `HEADER + self.dim`, so the launch writing both planes writes one element twice
(E0499, as the runtime's `AliasingError` says)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HEADER = 1


@simt.kernel
@simt.launch_contract(block=32)
def split_planes(src: Slice[f32], re: DisjointSlice[f32], im: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (r := re.get_mut(thread.index_1d())) is not None:
        r.set(src[i])
    if (m := im.get_mut(thread.index_1d())) is not None:
        m.set(-src[i])


class StateVector:
    def __init__(self, dim: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.dim = dim
        self.stream = stream
        self.state = sk.zeros(HEADER + 2 * dim, f32, stream)
        self.src = sk.to_device(np.arange(dim, dtype=np.float32), stream)
        self.prepared = split_planes.prepare(simt.LaunchConfig1D.for_len(dim, block=32), dev)

    def planes(self, buf: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        re = buf.view(HEADER, HEADER + self.dim)
        im = buf.view(self.dim, HEADER + 2 * self.dim)
        return re, im

    def load(self) -> None:
        re, im = self.planes(self.state)
        split_planes.launch(self.prepared, self.stream, self.src, re, im)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    state = StateVector(32, dev, dev.new_stream())
    state.load()
    print(state.state.to_numpy(state.stream)[:4])


if __name__ == "__main__":
    main()
