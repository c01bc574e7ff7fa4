# fresh-expect: clean
"""Clean: a dataclass allocates its output in `__post_init__` (field(init=False)); two layers built from the same
input each get their own output, and the second layer reads the first one's output."""
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


@dataclass
class Layer:
    inp: sk.DeviceBuffer
    stream: sk.Stream
    alpha: float = 2.0
    out: sk.DeviceBuffer = field(init=False)

    def __post_init__(self) -> None:
        self.out = sk.zeros(len(self.inp), f32, self.stream)

    def forward(self, prepared) -> sk.DeviceBuffer:
        scale.launch(prepared, self.stream, self.inp, self.out, self.alpha)
        return self.out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(128, np.float32), stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    first = Layer(x, stream)
    second = Layer(first.forward(prepared), stream, alpha=0.5)
    print(second.forward(prepared).to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
