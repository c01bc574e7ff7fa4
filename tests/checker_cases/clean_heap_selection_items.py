"""The items `heapq.nsmallest` / `heapq.nlargest` select are the iterable's objects themselves, not copies:
`top = heapq.nsmallest(1, pool, key=len)[0]` may be any buffer of `pool`; here no buffer of `pool` is an input of
the launch that writes `top`, so every launch reads and writes different buffers."""

import heapq

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def smallest(prep: simt.PreparedLaunch, stream: sk.Stream, a: sk.DeviceBuffer, b: sk.DeviceBuffer) -> None:
    pool = [sk.zeros(32, f32, stream), sk.zeros(64, f32, stream)]
    top = heapq.nsmallest(1, pool, key=len)[0]
    vecadd.launch(prep, stream, a, b, top)


def largest(prep: simt.PreparedLaunch, stream: sk.Stream, a: sk.DeviceBuffer, b: sk.DeviceBuffer) -> None:
    pool = [sk.zeros(16, f32, stream), sk.zeros(32, f32, stream)]
    top = heapq.nlargest(1, pool, key=len)[0]
    vecadd.launch(prep, stream, a, b, top)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
    a = sk.to_device(np.ones(32, np.float32), stream)
    b = sk.zeros(32, f32, stream)
    for step in (smallest, largest):
        try:
            step(prep, stream, a, b)
        except sk.AliasingError as err:
            print("AliasingError:", err)


if __name__ == "__main__":
    main()
