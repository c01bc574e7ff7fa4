"""A heap hands back the objects pushed into it, however they were pushed: in a loop, from a display zipped with
other lists (`enumerate(zip(hosts, (beam0, beam1)))`), one tensor with every tuple (a mask shared by all jobs), or
through `heapq.heapreplace` / `heapq.heappushpop`.  A popped tuple's field may be any object pushed as that field,
and one pushed several times may come out again after a tile launch moved it: each marked launch uses a tensor a
launch before moved (the runtime raises `UseAfterMoveError` there).  `heapq.nsmallest` copies the heap's tuples,
not their tensors: the leaderboard read after the popped best was moved reads a moved tensor."""

import heapq

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def extend(out: Partition[f32], beam: Tensor[f32]) -> None:
    out.store(tile.load_like(beam, out) * 0.5)


@tile.kernel
def masked(out: Partition[f32], img: Tensor[f32], mask: Tensor[f32]) -> None:
    out.store(tile.load_like(img, out) * tile.load_like(mask, out))


def shared_mask(stream: sk.Stream, n: int) -> None:
    mask = tile.from_numpy(np.ones(n, np.float32))
    jobs: list[tuple[int, int, Tensor, Tensor]] = []
    for i in range(3):
        heapq.heappush(jobs, (i, i, tile.from_numpy(np.full(n, float(i), np.float32)), mask))
    while jobs:
        _, _, img, m = heapq.heappop(jobs)
        out = tile.zeros((n,), f32).partition((64,))
        out, img, m = masked(out, img, m).sync_on(stream)  # expect: E0382
        print(out.unpartition().to_numpy(stream)[:1])


def zipped_display(stream: sk.Stream, n: int) -> None:
    hosts = [np.ones(n, np.float32), np.zeros(n, np.float32)]
    beam0 = tile.from_numpy(hosts[0])
    beam1 = tile.from_numpy(hosts[1])
    heap: list[tuple[float, int, Tensor]] = []
    for i, (host, beam) in enumerate(zip(hosts, (beam0, beam1))):
        heapq.heappush(heap, (-float(host.sum()), i, beam))
    _, idx, best = heapq.heappop(heap)
    out = tile.zeros((n,), f32).partition((64,))
    out, best = extend(out, best).sync_on(stream)
    check = tile.zeros((n,), f32).partition((64,))
    check, beam0 = extend(check, beam0).sync_on(stream)  # expect: E0382
    print(idx, out.unpartition().to_numpy(stream)[:1], check.unpartition().to_numpy(stream)[:1])


def leaderboard(stream: sk.Stream, n: int) -> None:
    heap: list[tuple[float, int, Tensor]] = []
    for i in range(3):
        heapq.heappush(heap, (-float(i), i, tile.from_numpy(np.full(n, float(i), np.float32)).sync_on(stream)))
    leaders = heapq.nsmallest(2, heap)
    _, best_id, best = heapq.heappop(heap)
    out = tile.zeros((n,), f32).partition((64,))
    out, best = extend(out, best).sync_on(stream)
    for rank, (_, i, logits) in enumerate(leaders, start=1):
        print(rank, i, best_id, logits.to_numpy(stream)[:1])  # expect: E0382


def replaced(stream: sk.Stream, n: int) -> None:
    mask = tile.from_numpy(np.ones(n, np.float32))
    heap: list[tuple[float, int, Tensor]] = []
    heapq.heappush(heap, (2.0, 0, mask))
    heapq.heappush(heap, (3.0, 1, mask))
    _, _, got = heapq.heapreplace(heap, (5.0, 2, tile.from_numpy(np.zeros(n, np.float32))))
    out = tile.zeros((n,), f32).partition((64,))
    out, got = extend(out, got).sync_on(stream)
    _, _, again = heapq.heappushpop(heap, (9.0, 3, tile.from_numpy(np.zeros(n, np.float32))))
    out, again = extend(out, again).sync_on(stream)  # expect: E0382
    print(out.unpartition().to_numpy(stream)[:1])


def main() -> None:
    dev = sk.Device.cpu()
    shared_mask(dev.new_stream(), 256)
    zipped_display(dev.new_stream(), 256)
    leaderboard(dev.new_stream(), 256)
    replaced(dev.new_stream(), 256)


if __name__ == "__main__":
    main()
