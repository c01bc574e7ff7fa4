"""Look-alikes of e0382_heap_items_pushed_in_loops that run: a mask shared by every queued job is only read while
the jobs are drained and moved once after; beams pushed from a zipped display are re-scored before the best is
popped and moved; a leaderboard is read before the popped best is moved, or each of its tensors moved once by a loop
over it; a job popped and pushed back before its tensor is moved; `heapq.heapreplace` of distinct tensors."""

import heapq

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def extend(out: Partition[f32], beam: Tensor[f32]) -> None:
    out.store(tile.load_like(beam, out) * 0.5)


def shared_mask(stream: sk.Stream, n: int) -> None:
    mask = tile.from_numpy(np.ones(n, np.float32)).sync_on(stream)
    jobs: list[tuple[int, int, Tensor]] = []
    for i in range(3):
        heapq.heappush(jobs, (i, i, mask))
    while jobs:
        _, i, m = heapq.heappop(jobs)
        print(i, m.to_numpy(stream)[:1])
    out = tile.zeros((n,), f32).partition((64,))
    out, mask = extend(out, mask).sync_on(stream)
    print(out.unpartition().to_numpy(stream)[:1])


def zipped_display(stream: sk.Stream, n: int) -> None:
    hosts = [np.ones(n, np.float32), np.zeros(n, np.float32)]
    beam0 = tile.from_numpy(hosts[0])
    beam1 = tile.from_numpy(hosts[1])
    heap: list[tuple[float, int, Tensor]] = []
    for i, (host, beam) in enumerate(zip(hosts, (beam0, beam1))):
        heapq.heappush(heap, (-float(host.sum()), i, beam))
    check = tile.zeros((n,), f32).partition((64,))
    check, beam0 = extend(check, beam0).sync_on(stream)
    _, idx, best = heapq.heappop(heap)
    print(idx, check.unpartition().to_numpy(stream)[:1])


def leaderboard(stream: sk.Stream, n: int) -> None:
    heap: list[tuple[float, int, Tensor]] = []
    for i in range(3):
        heapq.heappush(heap, (-float(i), i, tile.from_numpy(np.full(n, float(i), np.float32)).sync_on(stream)))
    leaders = heapq.nsmallest(2, heap)
    for rank, (_, i, logits) in enumerate(leaders, start=1):
        print(rank, i, logits.to_numpy(stream)[:1])
    _, best_id, best = heapq.heappop(heap)
    out = tile.zeros((n,), f32).partition((64,))
    out, best = extend(out, best).sync_on(stream)
    print(best_id, out.unpartition().to_numpy(stream)[:1])


def rescored(stream: sk.Stream, n: int) -> None:
    heap: list[tuple[float, int, Tensor]] = []
    for i in range(3):
        heapq.heappush(heap, (-float(i), i, tile.from_numpy(np.full(n, float(i), np.float32))))
    top = heapq.nlargest(3, heap)
    for _, i, beam in top:
        out = tile.zeros((n,), f32).partition((64,))
        out, beam = extend(out, beam).sync_on(stream)
        print(i, out.unpartition().to_numpy(stream)[:1])


def pushed_back(stream: sk.Stream, n: int) -> None:
    heap: list[tuple[float, int, Tensor]] = []
    for i in range(3):
        heapq.heappush(heap, (1.0, i, tile.from_numpy(np.ones(n, np.float32))))
    while heap:
        prio, i, item = heapq.heappop(heap)
        if prio < 2.0:
            heapq.heappush(heap, (prio + 1.0, i, item))
            continue
        out = tile.zeros((n,), f32).partition((64,))
        out, item = extend(out, item).sync_on(stream)
        print(i, out.unpartition().to_numpy(stream)[:1])


def replaced(stream: sk.Stream, n: int) -> None:
    heap: list[tuple[float, int, Tensor]] = []
    heapq.heappush(heap, (2.0, 0, tile.from_numpy(np.ones(n, np.float32))))
    heapq.heappush(heap, (3.0, 1, tile.from_numpy(np.ones(n, np.float32))))
    _, _, got = heapq.heapreplace(heap, (5.0, 2, tile.from_numpy(np.zeros(n, np.float32))))
    out = tile.zeros((n,), f32).partition((64,))
    out, got = extend(out, got).sync_on(stream)
    _, _, again = heapq.heappushpop(heap, (9.0, 3, tile.from_numpy(np.zeros(n, np.float32))))
    out, again = extend(out, again).sync_on(stream)
    print(out.unpartition().to_numpy(stream)[:1])


def main() -> None:
    dev = sk.Device.cpu()
    shared_mask(dev.new_stream(), 256)
    zipped_display(dev.new_stream(), 256)
    leaderboard(dev.new_stream(), 256)
    rescored(dev.new_stream(), 256)
    pushed_back(dev.new_stream(), 256)
    replaced(dev.new_stream(), 256)


if __name__ == "__main__":
    main()
