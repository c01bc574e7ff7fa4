# fresh-expect: E0505 at line 66
"""Activation monitoring for a stack of tile layers.


While the network runs, an `ActivationStats` hook squares each layer's input into its own buffer with an
asynchronous SIMT launch (so monitoring overlaps compute); `collect()` waits for all of them and reports the RMS.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

WIDTH = 128
TILE = 32


@simt.kernel
@simt.launch_contract(block=64)
def square(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@tile.kernel
def soft_layer(out: Partition[f32], x: Tensor[f32], slope: f32) -> None:
    t = tile.load_like(x, out)
    out.store(tile.where(t > 0.0, t, t * slope) + 0.1)


class ActivationStats:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prep = square.prepare(simt.LaunchConfig1D.for_len(WIDTH, block=64), dev)
        self.inflight: OrderedDict[str, tuple[Any, sk.DeviceBuffer]] = OrderedDict()

    def observe(self, name: str, activation: Any) -> None:
        sq = sk.zeros(WIDTH, f32, self.stream)
        op = square.launch_async(self.prep, activation.as_buffer(), sq)
        self.inflight[name] = (op, sq)

    def collect(self) -> dict[str, float]:
        report = {}
        for name, (op, sq) in self.inflight.items():
            op.sync_on(self.stream)
            report[name] = math.sqrt(float(sq.to_numpy(self.stream).mean()))
        self.inflight.clear()
        return report


def forward(x: Any, slopes: list[float], stats: ActivationStats, stream: sk.Stream) -> Any:
    for depth, slope in enumerate(slopes):
        stats.observe(f"layer{depth}", x)
        out = tile.zeros((WIDTH,), f32).partition((TILE,))
        out, _, _ = soft_layer(out, x, slope).sync_on(stream)
        x = out.unpartition()
    return x


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    stats = ActivationStats(dev, stream)
    x = tile.from_numpy(np.random.default_rng(1).standard_normal(WIDTH).astype(np.float32)).sync_on(stream)
    y = forward(x, [0.1, 0.2, 0.05], stats, stream)
    for name, rms in stats.collect().items():
        print(f"{name}: rms {rms:.4f}")
    print("output mean", float(y.to_numpy(stream).mean()))


if __name__ == "__main__":
    main()
