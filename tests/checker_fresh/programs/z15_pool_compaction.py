# fresh-expect: E0502 at line 38
# compaction copies every live segment to the write cursor, including the first one that is already in place: source and destination slices are the same range
"""Compact a slab allocator: live fixed-size segments of a device pool are copied to the
front of the pool so the free space at the end is contiguous."""
from __future__ import annotations

from itertools import compress, pairwise

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SEG = 128
SEGMENTS = 6


@simt.kernel
@simt.launch_contract(block=128)
def copy_segment(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


def live_ranges(alive: list[bool]) -> list[tuple[int, int]]:
    bounds = range(0, SEG * (len(alive) + 1), SEG)
    return list(compress(pairwise(bounds), alive))


def compact(pool: sk.DeviceBuffer, alive: list[bool], prepared, stream: sk.Stream) -> int:
    """Copy live segments to the front of `pool`; returns the number of live elements."""
    write = 0
    for lo, hi in live_ranges(alive):
        copy_segment.launch(prepared, stream, pool[lo:hi], pool[write:write + SEG])
        write += SEG
    return write


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    host = np.repeat(np.arange(SEGMENTS, dtype=np.float32), SEG)
    pool = sk.to_device(host, stream)
    prepared = copy_segment.prepare(simt.LaunchConfig1D.for_len(SEG, block=128), dev)

    alive = [True, False, True, True, False, True]
    used = compact(pool, alive, prepared, stream)
    packed = pool.to_numpy(stream)[:used].reshape(-1, SEG)[:, 0]
    print(f"{used // SEG} live segments packed: {packed.tolist()}")
    assert packed.tolist() == [float(i) for i, keep in enumerate(alive) if keep]


if __name__ == "__main__":
    main()
