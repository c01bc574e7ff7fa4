# fresh-expect: E0505 at line 49
# fresh-known-miss: cli,mypy list(itertools.islice(gen, 2)) of a generator yielding launch_async ops: the ops' loans are not followed through islice of a generator
"""Sharded embedding lookup: a generator schedules one async gather per shard, a window of two runs at a time."""
from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

ROWS = 512
SHARD = 128


@simt.kernel
@simt.launch_contract(block=128)
def gather_rows(table: Slice[f32], ids: Slice[i32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(table[ids[i]])


@tile.kernel
def decay(out: Partition[f32], table: Tensor[f32], factor: f32) -> None:
    out.store(tile.load_like(table, out) * factor)


def shard_jobs(table: sk.DeviceBuffer, ids: np.ndarray, dev: sk.Device,
               stream: sk.Stream) -> Iterator[tuple[sk.DeviceBuffer, sk.DeviceOp]]:
    prepared = gather_rows.prepare(simt.LaunchConfig1D.for_len(SHARD, block=128), dev)
    for start in range(0, len(ids), SHARD):
        shard_ids = sk.to_device(ids[start:start + SHARD], stream)
        out = sk.zeros(SHARD, f32, stream)
        yield out, gather_rows.launch_async(prepared, table, shard_ids, out)


def lookup_window(ids: np.ndarray, dev: sk.Device, stream: sk.Stream) -> float:
    table = sk.to_device(np.arange(ROWS, dtype=np.float32), stream)
    window = list(islice(shard_jobs(table, ids, dev, stream), 2))
    # decay the table for the next step while the window's gathers are in flight
    refreshed = tile.zeros((ROWS,), f32).partition((SHARD,))
    refreshed, table, _ = decay(refreshed, table, 0.99).sync_on(stream)
    total = 0.0
    for out, op in window:
        op.sync_on(stream)
        total += float(out.to_numpy(stream).sum())
    return total


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    ids = np.random.default_rng(6).integers(0, ROWS, 4 * SHARD).astype(np.int32)
    print("window checksum:", lookup_window(ids, dev, stream))


if __name__ == "__main__":
    main()
