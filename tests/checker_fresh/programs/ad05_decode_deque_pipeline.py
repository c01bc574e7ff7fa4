# fresh-expect: E0505 at line 71
# fresh-known-miss: cli,mypy a deque of pending `launch_async` ops fed by an endless generator cut with `itertools.islice`: the tile op built from the decoded buffer moves it while a deque op still borrows it
"""Pipelined sensor decode: SIMT decode runs asynchronously, a tile kernel rectifies the result.

At most `depth` decodes are in flight; when the window is full the oldest one is synced
and its buffer handed to the tile stage.  `drain` flushes what is left at the end.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 512
TILE = 128
GAIN = 1.0 / 2048.0


@simt.kernel
@simt.launch_contract(block=128)
def decode(raw: Slice[f32], out: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] - f32(2048.0)) * gain)


@tile.kernel
def rectify(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.maximum(tile.load_like(x, out), 0.0))


class DecodePipeline:
    def __init__(self, dev: sk.Device, stream: sk.Stream, depth: int = 2) -> None:
        self.prep = decode.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.stream = stream
        self.depth = depth
        self.inflight: deque[tuple[sk.DeviceBuffer, sk.DeviceOp]] = deque()
        self.energy: list[float] = []

    def _energy(self, op: sk.DeviceOp) -> float:
        out, _ = op.sync_on(self.stream)
        host = out.unpartition().to_numpy(self.stream)
        return float((host * host).sum())

    def _rectify(self, buf: sk.DeviceBuffer) -> sk.DeviceOp:
        return rectify(tile.zeros((N,), f32).partition((TILE,)), buf)

    def submit(self, raw: sk.DeviceBuffer) -> None:
        out = sk.zeros(N, f32, self.stream)
        self.inflight.append((out, decode.launch_async(self.prep, raw, out, GAIN)))
        if len(self.inflight) > self.depth:
            buf, op = self.inflight.popleft()
            op.sync_on(self.stream)
            self.energy.append(self._energy(self._rectify(buf)))

    def drain(self) -> int:
        flushed = 0
        while self.inflight:
            buf, op = self.inflight.popleft()
            # tile ops are lazy: build the rectify step while the decode is still running
            pending = rectify(tile.zeros((N,), f32).partition((TILE,)), buf)
            op.sync_on(self.stream)
            self.energy.append(self._energy(pending))
            flushed += 1
        return flushed


def sensor_frames(rng: np.random.Generator, stream: sk.Stream) -> Iterator[sk.DeviceBuffer]:
    while True:
        yield sk.to_device(rng.integers(0, 4096, N).astype(np.float32), stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(9)
    pipe = DecodePipeline(dev, stream, depth=2)
    for raw in itertools.islice(sensor_frames(rng, stream), 5):
        pipe.submit(raw)
    left = pipe.drain()
    print(f"drained {left}; energies:", [round(e, 2) for e in pipe.energy])


if __name__ == "__main__":
    main()
