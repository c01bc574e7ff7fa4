# fresh-expect: E0505 at line 52
# sensor-log compression: delta encoding launched inside a context manager, zig-zag varint packing in a tile kernel
from __future__ import annotations

from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def delta_encode(raw: Slice[i32], deltas: DisjointSlice[i32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := deltas.get_mut(idx)) is not None:
        o.set(raw[i] - raw[i - 1] if i > 0 else raw[0])


@tile.kernel
def zigzag(codes: Partition[i32]) -> None:
    d = codes.load()
    codes.store((d << 1) ^ (d >> 31))


@contextmanager
def encoding(raw: sk.DeviceBuffer, deltas: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream):
    prepared = delta_encode.prepare(simt.LaunchConfig1D.for_len(len(raw), block=128), dev)
    op = delta_encode.launch_async(prepared, raw, deltas)
    try:
        yield deltas
    finally:
        op.sync_on(stream)


def varint_bytes(values: np.ndarray) -> int:
    v = values.astype(np.uint32)
    return int(sum(max(1, (int(x).bit_length() + 6) // 7) for x in v))


def compress(samples: np.ndarray, dev: sk.Device, stream: sk.Stream) -> tuple[int, np.ndarray]:
    raw = sk.to_device(samples, stream)
    deltas = sk.zeros(len(samples), i32, stream)
    with encoding(raw, deltas, dev, stream) as encoded:
        parts = encoded.partition((TILE,))
        (parts,) = zigzag(parts).sync_on(stream)
    codes = parts.to_numpy(stream)
    return varint_bytes(codes), codes


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(12)
    for name, drift in [("thermistor", 0.2), ("strain-gauge", 3.0), ("barometer", 0.05)]:
        walk = np.cumsum(rng.normal(0.0, drift * 10, 2048)).astype(np.int32) + 20_000
        size, codes = compress(walk, dev, stream)
        restored = np.cumsum(((codes >> 1) ^ -(codes & 1)).astype(np.int64))
        assert (restored == walk).all()
        print(f"{name:>13}: {walk.nbytes} B raw -> {size} B varint ({walk.nbytes / size:.1f}x)")


if __name__ == "__main__":
    main()
