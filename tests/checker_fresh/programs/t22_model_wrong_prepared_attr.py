# fresh-expect: E0308 at line 42
"""A small model prepares one launch per kernel in `__init__`; the bias layer launches with the GELU launch."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def add_bias(x: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + b[i])


@simt.kernel
@simt.launch_contract(block=128)
def gelu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = x[i]
    if (o := out.get_mut(idx)) is not None:
        o.set(0.5 * v * (1.0 + v / (1.0 + abs(v))))


class Block:
    def __init__(self, width: int, dev, stream) -> None:
        self.stream = stream
        cfg = simt.LaunchConfig1D.for_len(width, block=128)
        self.bias_launch = add_bias.prepare(cfg, dev)
        self.gelu_launch = gelu.prepare(cfg, dev)
        self.bias = sk.to_device(np.full(width, 0.1, np.float32), stream)
        self.h = sk.zeros(width, f32, stream)
        self.out = sk.zeros(width, f32, stream)

    def __call__(self, x):
        add_bias.launch(self.gelu_launch, self.stream, x, self.bias, self.h)  # BUG: launch prepared for gelu
        gelu.launch(self.gelu_launch, self.stream, self.h, self.out)
        return self.out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    block = Block(256, dev, stream)
    x = sk.to_device(np.linspace(-1, 1, 256, dtype=np.float32), stream)
    print(block(x).to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
