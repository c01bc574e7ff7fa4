# fresh-expect: clean
# idiom: class hierarchy with super().__init__ forwarding positional arguments, an overridden operands() hook, DeviceOp.first().unpartition(), tile results lent to SIMT with sk.as_buffer
"""Two output heads over tile-computed features.

A tile kernel produces the hidden features; the heads mix them on the SIMT side with
`out = x + alpha * skip`.  The plain head uses the features as their own skip input;
the residual head takes a separate skip tensor.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 384
TILE = 128


@tile.kernel
def soft_relu(out: Partition[f32], x: Tensor[f32]) -> None:
    t = tile.load_like(x, out)
    out.store(tile.log(tile.exp(t) + 1.0))


@simt.kernel
@simt.launch_contract(block=128)
def mix(x: Slice[f32], skip: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + alpha * skip[i])


def features(host: np.ndarray, stream: sk.Stream) -> tile.Tensor:
    op = soft_relu(tile.zeros((N,), f32).partition((TILE,)), tile.from_numpy(host))
    return op.first().unpartition().sync_on(stream)


class Head:
    def __init__(self, stream: sk.Stream, feats: tile.Tensor, out: sk.DeviceBuffer | None = None) -> None:
        self.stream = stream
        self.x = sk.as_buffer(feats)
        self.out = out if out is not None else sk.zeros(len(self.x), f32, stream)

    def operands(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return self.x, self.x

    def __call__(self, prep: simt.PreparedLaunch, alpha: float) -> np.ndarray:
        mix.launch(prep, self.stream, *self.operands(), self.out, alpha)
        return self.out.to_numpy(self.stream)


class ResidualHead(Head):
    def __init__(self, stream: sk.Stream, feats: tile.Tensor, skip: tile.Tensor) -> None:
        super().__init__(stream, feats)
        self.skip = sk.as_buffer(skip)

    def operands(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return self.x, self.skip


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    prep = mix.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    hidden = features(rng.standard_normal(N).astype(np.float32), stream)
    embed = tile.from_numpy(rng.standard_normal(N).astype(np.float32)).sync_on(stream)
    heads = {"plain": Head(stream, hidden), "residual": ResidualHead(stream, hidden, embed)}
    for name, head in heads.items():
        y = head(prep, 0.5)
        print(f"{name:>8}: mean {y.mean():+.4f}, std {y.std():.4f}")


if __name__ == "__main__":
    main()
