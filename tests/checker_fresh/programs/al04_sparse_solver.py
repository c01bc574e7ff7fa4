# fresh-expect: E0505 at line 58
# fresh-note: async Jacobi sweeps on a banded sparse system driven by a schedule generator, with a tile kernel measuring the update norm; the norm is computed while the sweep's launch_async op still borrows the iterate buffers, so the tile launch moves borrowed memory.
from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 16


@simt.kernel
@simt.launch_contract(block=32)
def sweep(indptr: Slice[i32], indices: Slice[i32], data: Slice[f32], rhs: Slice[f32],
          x: Slice[f32], x_new: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    row = idx.get()
    if (o := x_new.get_mut(idx)) is not None:
        off = f32(0.0)
        diag = f32(1.0)
        for k in range(indptr[row], indptr[row + 1]):
            if indices[k] == row:
                diag = data[k]
            else:
                off += data[k] * x[indices[k]]
        o.set((rhs[row] - off) / diag)


@tile.kernel
def sqdiff(out: Partition[f32], a: Tensor[f32], b: Tensor[f32]) -> None:
    d = tile.load_like(a, out) - tile.load_like(b, out)
    out.store(d * d)


class IterState:
    def __init__(self, n: int, stream: sk.Stream) -> None:
        self.n = n
        self.cur = sk.zeros(n, f32, stream)
        self.nxt = sk.zeros(n, f32, stream)

    def swap(self) -> None:
        self.cur, self.nxt = self.nxt, self.cur


def schedule(total: int, check_every: int) -> Iterator[tuple[int, bool]]:
    for s in range(total):
        yield s, (s + 1) % check_every == 0


def update_norm(state: IterState, stream: sk.Stream) -> float:
    parts = tile.zeros((state.n,), f32).partition((TILE,))
    parts, state.cur, state.nxt = sqdiff(parts, state.cur, state.nxt).sync_on(stream)
    return float(np.sqrt(parts.unpartition().to_numpy(stream).sum()))


def banded(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    indptr, indices, data = [0], [], []
    for r in range(n):
        for c in (r - 2, r - 1, r, r + 1, r + 2):
            if 0 <= c < n:
                indices.append(c)
                data.append(6.0 if c == r else -1.0)
        indptr.append(len(indices))
    return np.array(indptr, np.int32), np.array(indices, np.int32), np.array(data, np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 64
    ip, ix, dv = banded(n)
    indptr, indices, data = (sk.to_device(a, stream) for a in (ip, ix, dv))
    rhs = sk.to_device(np.ones(n, np.float32), stream)
    state = IterState(n, stream)
    prepared = sweep.prepare(simt.LaunchConfig1D.for_len(n, block=32), dev)
    norms = []
    for s, check in schedule(12, 4):
        pending = sweep.launch_async(prepared, indptr, indices, data, rhs, state.cur, state.nxt)
        if check:
            norms.append(update_norm(state, stream))  # overlap the norm with the running sweep
        pending.sync_on(stream)
        state.swap()
    print("update norms:", norms)
    print("x[:4] =", state.cur.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
