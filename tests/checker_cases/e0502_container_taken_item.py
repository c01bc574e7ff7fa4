"""What goes into a standard-library container comes back out: `q.get()` of a `queue.Queue` hands back the
buffer `q.put(out)` stored, so launching it as the output beside `out` as the input is one buffer read and
written by one launch (the runtime raises `AliasingError`); `heapq.heappop(heap)` hands back the tuple
`heapq.heappush(heap, (score, i, beam))` stored, so `_, _, best = heapq.heappop(heap)` is `beam` itself, and
using `beam` after a tile launch moved `best` is a use after move."""

import heapq
import queue

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def halve(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(0.5))


@tile.kernel
def extend(out: Partition[f32], beam: Tensor[f32]) -> None:
    out.store(tile.load_like(beam, out) * 0.5)


@tile.kernel
def scale(out: Partition[f32]) -> None:
    out.store(out.load() * 0.5)


def drained(stream: sk.Stream, n: int) -> None:
    """Drain loops: each item is taken once, so moving the one this iteration took is no use of the next."""
    inbox: queue.Queue[sk.DeviceBuffer[f32]] = queue.Queue()
    heap: list[tuple[float, int, sk.DeviceBuffer[f32]]] = []
    for i in range(3):
        buf = tile.from_numpy(np.full(n, float(i), np.float32))
        inbox.put(buf)
        heapq.heappush(heap, (float(i), i, tile.from_numpy(np.ones(n, np.float32))))
    while not inbox.empty():
        b = inbox.get()
        (part,) = scale(b.partition((64,))).sync_on(stream)
        print(part.unpartition().to_numpy(stream)[:1])
    while heap:
        _, _, item = heapq.heappop(heap)
        out = tile.zeros((n,), f32).partition((64,))
        out, item = extend(out, item).sync_on(stream)
        print(out.unpartition().to_numpy(stream)[:1])


def queued(stream: sk.Stream, prepared: simt.PreparedLaunch, n: int) -> None:
    inbox: queue.Queue[sk.DeviceBuffer[f32]] = queue.Queue()
    out = sk.to_device(np.ones(n, np.float32), stream)
    inbox.put(out)
    got = inbox.get()
    halve.launch(prepared, stream, out, got)  # expect: E0502


def popped(stream: sk.Stream, n: int) -> None:
    beam0 = tile.from_numpy(np.ones(n, np.float32))
    beam1 = tile.from_numpy(np.zeros(n, np.float32))
    heap: list[tuple[float, int, sk.DeviceBuffer[f32]]] = []
    heapq.heappush(heap, (-1.0, 0, beam0))
    heapq.heappush(heap, (-0.5, 1, beam1))
    _, idx, best = heapq.heappop(heap)
    out = tile.zeros((n,), f32).partition((64,))
    out, best = extend(out, best).sync_on(stream)
    check = tile.zeros((n,), f32).partition((64,))
    check, beam0 = extend(check, beam0).sync_on(stream)  # expect: E0382
    print(idx, out.unpartition().to_numpy(stream)[:2], check.unpartition().to_numpy(stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    launch = halve.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    drained(dev.new_stream(), 256)
    queued(dev.new_stream(), launch, 256)
    popped(dev.new_stream(), 256)


if __name__ == "__main__":
    main()
