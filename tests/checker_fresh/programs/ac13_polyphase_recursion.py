# fresh-expect: E0499 at line 46
# idiom: recursive decomposition with an lru_cache'd launch planner and slice arithmetic
"""Polyphase decomposition of a sensor trace into 2**depth phases.

Each level splits a band into its even and odd samples, written into the two halves of a
fresh destination buffer, then recurses into both halves.  Launches are prepared once per
band length through an `lru_cache`d planner.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SAMPLES = 1000
DEPTH = 4


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], evens: DisjointSlice[f32], odds: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if 2 * i < len(src) and (e := evens.get_mut(idx)) is not None:
        e.set(src[2 * i])
    jdx = thread.index_1d()
    if 2 * i + 1 < len(src) and (o := odds.get_mut(jdx)) is not None:
        o.set(src[2 * i + 1])


@lru_cache(maxsize=None)
def plan(length: int):
    return split2.prepare(simt.LaunchConfig1D.for_len(length, block=64), sk.Device.default())


def decompose(src: sk.DeviceBuffer, depth: int, stream: sk.Stream, leaves: list) -> None:
    dst = sk.zeros(len(src), f32, stream)
    half = (len(src) + 1) // 2
    evens, odds = dst[:half], dst[len(dst) - half :]
    split2.launch(plan(half), stream, src, evens, odds)
    if depth == 1:
        leaves.extend([evens, odds])
        return
    for band in (evens, odds):
        decompose(band, depth - 1, stream, leaves)


def main() -> None:
    stream = sk.Device.default().new_stream()
    trace = np.sin(np.linspace(0, 20 * np.pi, SAMPLES, dtype=np.float32))
    leaves: list = []
    decompose(sk.to_device(trace, stream), DEPTH, stream, leaves)
    energies = [float((leaf.to_numpy(stream) ** 2).sum()) for leaf in leaves]
    print(f"{len(leaves)} phases, energy {sum(energies):.2f} (input {float((trace ** 2).sum()):.2f})")
    print("plan cache:", plan.cache_info())


if __name__ == "__main__":
    main()
