# fresh-expect: clean
# fresh-note: Double-buffered ingestion decodes each packet asynchronously into the front buffer while the back buffer is summarised by a tile launch; the ring is flipped only after the pending decode is synced, so the summary moves a buffer no op borrows.
"""Double-buffered ingestion: SIMT decode of packed price ticks overlapped with a Tile-track per-tile summary."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 128
TILE = 32


@simt.kernel
@simt.launch_contract(block=64)
def decode(raw: Slice[i32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(f32(raw[i] & 0xFFFF) * 0.01)


@tile.kernel
def tile_totals(totals: Partition[f32], vals: Tensor[f32]) -> None:
    chunk = vals.partition((TILE,)).load((tile.bid(0),))
    totals.store(tile.sum(chunk, axis=0, keepdims=True))


class Ring:
    def __init__(self, stream: sk.Stream) -> None:
        self.front = sk.zeros(N, f32, stream)
        self.back = sk.zeros(N, f32, stream)

    def flip(self) -> None:
        self.front, self.back = self.back, self.front


def summarize(buf: sk.DeviceBuffer, stream: sk.Stream) -> tuple[sk.DeviceBuffer, np.ndarray]:
    totals = tile.zeros((N // TILE,), f32).partition((1,))
    totals, buf = tile_totals(totals, buf).sync_on(stream)
    return buf, totals.unpartition().to_numpy(stream)


def packets(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    return [((rng.integers(0, 8, N) << 16) | rng.integers(100, 5000, N)).astype(np.int32) for _ in range(count)]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(8)
    prep = decode.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    ring = Ring(stream)
    sent = packets(rng, 4)
    summaries: list[np.ndarray] = []
    for tick, packet in enumerate(sent):
        raw = sk.to_device(packet, stream)
        pending = decode.launch_async(prep, raw, ring.front)
        if tick > 0:
            ring.back, totals = summarize(ring.back, stream)
            summaries.append(totals)
        pending.sync_on(stream)
        ring.flip()
    ring.back, totals = summarize(ring.back, stream)
    summaries.append(totals)
    for packet, totals in zip(sent, summaries):
        prices = (packet & 0xFFFF).astype(np.float32) * np.float32(0.01)
        np.testing.assert_allclose(totals, prices.reshape(-1, TILE).sum(axis=1), rtol=1e-5)
    print(f"{len(summaries)} packets summarised, last totals {np.round(summaries[-1], 2)}")


if __name__ == "__main__":
    main()
