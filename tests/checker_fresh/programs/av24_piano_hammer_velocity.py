# fresh-expect: E0382 at line 58
# fresh-note: Piano action regulation model whose voicing step moves the hammer-velocity buffer into the tile world with `partition` and keeps only the unpartitioned tensor, while the `strike` property still returns the old buffer attribute, so the next SIMT loudness launch uses a moved buffer.
"""Hammer velocity voicing and loudness estimation for a grand piano's action."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

KEYS = 88
STRIKES = 24          # recorded strikes per key
N = KEYS * STRIKES
TILE = 96


@tile.kernel
def voice(velocity: Partition[f32], felt: Tensor[f32], needling: f32) -> None:
    v = velocity.load()
    hardness = tile.load_like(felt, velocity)
    velocity.store(v * (1.0 - needling * (hardness - 0.5)))


@simt.kernel
@simt.launch_contract(block=96)
def loudness(velocity: Slice[f32], db: DisjointSlice[f32], ref: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := db.get_mut(idx)) is not None:
        o.set(f32(20.0) * math.log10(max(velocity[i], f32(1e-3)) / ref) + f32(80.0))


class HammerBank:
    def __init__(self, dev: sk.Device, stream: sk.Stream, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.stream = stream
        self.velocity = sk.to_device(rng.uniform(1.5, 5.5, N).astype(np.float32), stream)
        self.felt = tile.from_numpy(rng.uniform(0.3, 0.8, N).astype(np.float32)).shared()
        self.voiced = None
        self.prepared = loudness.prepare(simt.LaunchConfig1D.for_len(N, block=96), dev)

    @property
    def strike(self) -> sk.DeviceBuffer:
        return self.velocity

    def voice_hammers(self, needling: float) -> None:
        parts = self.velocity.partition((TILE,))
        parts, _felt, _n = voice(parts, self.felt, needling).sync_on(self.stream)
        self.voiced = parts.unpartition()

    def loudness_db(self) -> np.ndarray:
        db = sk.zeros(N, f32, self.stream)
        loudness.launch(self.prepared, self.stream, self.strike, db, 3.0)
        return db.to_numpy(self.stream).reshape(KEYS, STRIKES).mean(axis=1)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    bank = HammerBank(dev, stream, seed=88)
    before = bank.loudness_db()
    print(f"before voicing: loudest key {int(before.argmax())}, spread {before.max() - before.min():.1f} dB")
    bank.voice_hammers(needling=0.3)
    after = bank.loudness_db()
    print(f"after voicing: spread {after.max() - after.min():.1f} dB")


if __name__ == "__main__":
    main()
