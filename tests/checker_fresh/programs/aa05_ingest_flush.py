# fresh-expect: E0505 at line 72
# fresh-known-miss: cli,mypy async decode ops kept in a dict per request, flushed only when the dict holds FLUSH_AT ops: with fewer requests the tile launch moves buffers the pending ops borrow
"""Sensor ingest: decode raw int-coded samples on the device, then rectify them with a tile kernel.

Requests are submitted asynchronously (`launch_async`) so decoding of several sensors overlaps; the service
flushes its pending decodes in batches and then runs the tile stage over every decoded buffer.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 128
TILE = 64
FLUSH_AT = 4


@simt.kernel
@simt.launch_contract(block=64)
def decode(raw: Slice[f32], out: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((raw[i] - f32(512.0)) * gain)


@tile.kernel
def rectify(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.maximum(tile.load_like(x, out), 0.0))


class Ingest:
    def __init__(self, dev: sk.Device, stream: sk.Stream, gain: float) -> None:
        self.stream = stream
        self.gain = gain
        self.prep = decode.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.pending: dict[str, Any] = {}

    def submit(self, name: str, raw: Any) -> Any:
        out = sk.zeros(N, f32, self.stream)
        self.pending[name] = decode.launch_async(self.prep, raw, out, self.gain)
        return out

    def flush(self) -> int:
        done = 0
        while self.pending:
            _, op = self.pending.popitem()
            op.sync_on(self.stream)
            done += 1
        return done


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    raws = {name: sk.to_device(rng.integers(0, 1024, N).astype(np.float32), stream) for name in ("imu", "baro", "mag")}
    ingest = Ingest(dev, stream, gain=1.0 / 512)
    decoded = {name: ingest.submit(name, raw) for name, raw in raws.items()}
    if len(ingest.pending) >= FLUSH_AT:
        ingest.flush()
    report = {}
    for name, buf in decoded.items():
        op = rectify(tile.zeros((N,), f32).partition((TILE,)), buf)
        res, decoded[name] = op.sync_on(stream)
        report[name] = float(res.unpartition().to_numpy(stream).mean())
    print({k: round(v, 4) for k, v in report.items()})


if __name__ == "__main__":
    main()
