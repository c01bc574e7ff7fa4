# fresh-expect: E0505 at line 58
# fresh-known-miss: cli,mypy pending ops a method stores on each item of a list in one loop (`shard.start()` sets `shard.pending`); a second loop over the same list moves `shard.out`: the items of two loops are not known to be the same objects
"""Score items sharded across two devices and gather the scores on the home device.

Each shard holds a slice of the item features and the matching weights on its own device and
scores them asynchronously with a SIMT kernel, so that both shards work at the same time.  The
scores are then moved to the home device, where the final ranking happens.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def score(features: Slice[f32], weights: Slice[f32], out: DisjointSlice[f32], bias: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(features[i] * weights[i] + bias)


class Shard:
    def __init__(self, device: sk.Device, features: np.ndarray, weights: np.ndarray) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.n = len(features)
        self.features = sk.to_device(features.astype(np.float32), self.stream)
        self.weights = sk.to_device(weights.astype(np.float32), self.stream)
        self.out = sk.zeros(self.n, f32, self.stream)
        self.prepared = score.prepare(simt.LaunchConfig1D.for_len(self.n, block=BLOCK), device)
        self.pending: Any = None

    def start(self, bias: float) -> None:
        self.pending = score.launch_async(self.prepared, self.features, self.weights, self.out, bias)

    def finish(self) -> None:
        self.pending.sync_on(self.stream)
        self.pending = None


def gather_scores(shards: list[Shard], home: sk.Device, bias: float) -> np.ndarray:
    home_stream = home.new_stream()
    for shard in shards:
        shard.start(bias)
    gathered: list[sk.DeviceBuffer[f32]] = []
    for shard in shards:
        gathered.append(shard.out.to(home, home_stream))
        shard.finish()
    return np.concatenate([buf.to_numpy(home_stream) for buf in gathered])


def main() -> None:
    rng = np.random.default_rng(8)
    features = rng.standard_normal(600)
    weights = rng.uniform(0.0, 1.0, 600)
    devices = [sk.Device.cpu(0), sk.Device.cpu(1)]
    shards = [Shard(dev, features[k * 300 : (k + 1) * 300], weights[k * 300 : (k + 1) * 300])
              for k, dev in enumerate(devices)]
    scores = gather_scores(shards, devices[0], bias=0.25)
    top = np.argsort(scores)[::-1][:5]
    print("top items:", top.tolist(), "scores:", np.round(scores[top].astype(float), 3).tolist())


if __name__ == "__main__":
    main()
