# fresh-expect: E0499 at line 62
# PageRank power iteration: edges split into chunks, one async scatter launch per chunk, all synced together
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

NODES = 300
CHUNK = 512
DAMPING = 0.85


@simt.kernel
@simt.launch_contract(block=128)
def push_rank(src: Slice[i32], dst: Slice[i32], rank: Slice[f32], out_deg: Slice[f32],
              incoming: AtomicSlice[f32]) -> None:
    e = thread.index_1d().get()
    if e < len(src):
        s = src[e]
        incoming.fetch_add(dst[e], rank[s] / out_deg[s])


@simt.kernel
@simt.launch_contract(block=128)
def teleport(incoming: Slice[f32], rank_next: DisjointSlice[f32], base: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := rank_next.get_mut(idx)) is not None:
        o.set(base + DAMPING * incoming[i])


def random_graph(rng: np.random.Generator, n: int, avg_deg: int) -> tuple[np.ndarray, np.ndarray]:
    src = np.repeat(np.arange(n), rng.poisson(avg_deg, n) + 1).astype(np.int32)
    dst = (rng.zipf(1.6, len(src)) % n).astype(np.int32)
    return src, dst


def edge_chunks(src: np.ndarray, dst: np.ndarray, stream: sk.Stream):
    for start in range(0, len(src), CHUNK):
        yield sk.to_device(src[start : start + CHUNK], stream), sk.to_device(dst[start : start + CHUNK], stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(99)
    src, dst = random_graph(rng, NODES, 6)
    deg = np.bincount(src, minlength=NODES).astype(np.float32)
    chunks = list(edge_chunks(src, dst, stream))
    out_deg = sk.to_device(deg, stream)
    push_launch = push_rank.prepare(simt.LaunchConfig1D.for_len(CHUNK, block=128), dev)
    tele_launch = teleport.prepare(simt.LaunchConfig1D.for_len(NODES, block=128), dev)

    rank = sk.to_device(np.full(NODES, 1.0 / NODES, np.float32), stream)
    rank_next = sk.zeros(NODES, f32, stream)
    for it in range(30):
        incoming = sk.zeros(NODES, f32, stream)
        ops = [push_rank.launch_async(push_launch, s, d, rank, out_deg, incoming) for s, d in chunks]
        for op in ops:
            op.sync_on(stream)
        teleport.launch(tele_launch, stream, incoming, rank_next, (1.0 - DAMPING) / NODES)
        delta = float(np.abs(rank_next.to_numpy(stream) - rank.to_numpy(stream)).sum())
        rank, rank_next = rank_next, rank
        if delta < 1e-6:
            break
    top = np.argsort(rank.to_numpy(stream))[::-1][:5]
    print(f"converged after {it + 1} iterations; top nodes {top.tolist()}")


if __name__ == "__main__":
    main()
