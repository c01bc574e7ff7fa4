# fresh-expect: clean
"""Residual blocks: `h = x + f(x)` reads `x` twice in one launch (two shared borrows), writing a fresh buffer."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def residual_tanhish(x: Slice[f32], skip: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = x[i]
    if (o := out.get_mut(idx)) is not None:
        o.set(skip[i] + v / (1.0 + abs(v)))


class ResidualStack:
    def __init__(self, depth: int, width: int, dev, stream) -> None:
        self.depth = depth
        self.stream = stream
        self.prep = residual_tanhish.prepare(simt.LaunchConfig1D.for_len(width, block=128), dev)
        self.spare = sk.zeros(width, f32, stream)

    def forward(self, x):
        for _ in range(self.depth):
            residual_tanhish.launch(self.prep, self.stream, x, x, self.spare)
            x, self.spare = self.spare, x
        return x


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    stack = ResidualStack(depth=3, width=512, dev=dev, stream=stream)
    x = sk.to_device(np.linspace(-1, 1, 512, dtype=np.float32), stream)
    y = stack.forward(x)
    print(y.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
