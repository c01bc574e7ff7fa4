# fresh-expect: E0382 at line 49
# fresh-note: found since: an attribute `__init__` binds to a view (or the object, `as_buffer()`) of another attribute keeps that relation, and is moved in every other method when a method moves the base and binds it anew
"""Running mean of a stream of gradient batches: a tile kernel accumulates the sum in
place, and a SIMT kernel reads the running sum through an as_buffer handle to produce
the mean."""
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
def accumulate(acc: Partition[f32], x: Tensor[f32]) -> None:
    acc.store(acc.load() + tile.load_like(x, acc))


@simt.kernel
@simt.launch_contract(block=128)
def scale(src: Slice[f32], out: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(k * src[i])


class RunningMean:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.count = 0
        self.total = tile.zeros((N,), f32).sync_on(stream)
        self.lent = self.total.as_buffer()  # SIMT view of the running sum
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)

    def add(self, batch: np.ndarray) -> None:
        acc, _x = accumulate(self.total.partition((TILE,)), tile.from_numpy(batch)).sync_on(self.stream)
        self.total = acc.unpartition()
        self.count += 1

    def mean(self) -> np.ndarray:
        out = sk.zeros(N, f32, self.stream)
        scale.launch(self.prepared, self.stream, self.lent, out, 1.0 / max(self.count, 1))
        return out.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    running = RunningMean(dev, stream)
    rng = np.random.default_rng(11)
    batches = [rng.normal(2.0, 0.5, N).astype(np.float32) for _ in range(4)]
    for b in batches:
        running.add(b)
    got = running.mean()
    assert np.allclose(got, np.mean(batches, axis=0), atol=1e-5)
    print(f"mean of {running.count} batches: {float(got.mean()):.4f}")


if __name__ == "__main__":
    main()
