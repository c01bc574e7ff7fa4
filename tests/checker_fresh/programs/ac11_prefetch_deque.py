# fresh-expect: E0505 at line 63
# fresh-known-miss: cli,mypy inflight[0] of a deque of (buffer, op) tuples appended in a loop: a subscript read of a container filled in place is a new value, so moving its buffer while the op is pending is not seen
"""A prefetching data loader: dequantize sample chunks on the device, DEPTH chunks ahead.

Chunks are decoded asynchronously into fresh buffers and queued; once the queue is full the
oldest decoded chunk is rectified by a tile kernel and its sum recorded.
"""

from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

CHUNK = 256
TILE = 64
DEPTH = 2
SCALE = 1.0 / 127.0


@simt.kernel
@simt.launch_contract(block=128)
def dequant(raw: Slice[f32], out: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] * scale)


@tile.kernel
def relu(z: Partition[f32]) -> None:
    z.store(tile.maximum(z.load(), 0.0))


def chunks(count: int):
    rng = np.random.default_rng(9)
    for _ in range(count):
        yield rng.integers(-127, 128, CHUNK).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = dequant.prepare(simt.LaunchConfig1D.for_len(CHUNK, block=128), dev)
    inflight: deque = deque()
    totals: list[float] = []
    source = chunks(5)
    issued = 0
    while (host := next(source, None)) is not None or inflight:
        if host is not None:
            out = sk.zeros(CHUNK, f32, stream)
            inflight.append((out, dequant.launch_async(prepared, sk.to_device(host, stream), out, SCALE)))
            issued += 1
            if len(inflight) < DEPTH:
                continue
        ready, _ = inflight[0]
        part = ready.partition((TILE,))
        inflight.popleft()[1].sync_on(stream)
        (part,) = relu(part).sync_on(stream)
        totals.append(float(part.unpartition().to_numpy(stream).sum()))
    print(f"issued {issued} chunks, positive mass per chunk: {[round(t, 2) for t in totals]}")


if __name__ == "__main__":
    main()
