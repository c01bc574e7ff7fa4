# fresh-expect: E0499 at line 71
# fresh-note: Paged KV cache whose pages come from a bump allocator over one device pool; each decode step writes the new key and value rows into freshly allocated pages. Bug: `PagePool.alloc` hands out one slot more than it advances (a "sentinel" slot), so the key page and the value page overlap by one element and `write_kv` gets them as two DisjointSlice outputs (E0499).
"""A paged KV cache in the style of vLLM: one big device pool, cut into fixed-size pages by a bump allocator.

Each sequence keeps a block table (the pages holding its keys and values); a decode step allocates one page
for the new key rows and one for the value rows and scatters the projections into them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HEAD_DIM = 32
PAGE = 64  # two tokens of HEAD_DIM per page


@simt.kernel
@simt.launch_contract(block=64)
def write_kv(k_new: Slice[f32], v_new: Slice[f32], k_page: DisjointSlice[f32], v_page: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(k_new):
        if (kd := k_page.get_mut(idx)) is not None:
            kd.set(k_new[i])
        vidx = thread.index_1d()
        if (vd := v_page.get_mut(vidx)) is not None:
            vd.set(v_new[i])


class PagePool:
    def __init__(self, num_pages: int, stream: sk.Stream) -> None:
        self.capacity = num_pages * PAGE
        self.buf = sk.zeros(self.capacity + 1, f32, stream)
        self.top = 0

    def alloc(self, size: int) -> sk.DeviceBuffer:
        start = self.top
        self.top += size
        if self.top > self.capacity:
            raise MemoryError("KV pool exhausted")
        return self.buf[start : start + size + 1]  # keep a sentinel slot after each page


@dataclass
class Sequence:
    seq_id: int
    k_pages: list = field(default_factory=list)
    v_pages: list = field(default_factory=list)


class KVCacheManager:
    def __init__(self, num_pages: int, dev: sk.Device, stream: sk.Stream) -> None:
        self.pool = PagePool(num_pages, stream)
        self.stream = stream
        self.prep = write_kv.prepare(simt.LaunchConfig1D.for_len(PAGE, block=64), dev)
        self.seqs: dict[int, Sequence] = {}

    def append(self, seq_id: int, k_rows: np.ndarray, v_rows: np.ndarray) -> None:
        seq = self.seqs.setdefault(seq_id, Sequence(seq_id))
        k_new = sk.to_device(k_rows.ravel(), self.stream)
        v_new = sk.to_device(v_rows.ravel(), self.stream)
        k_page = self.pool.alloc(PAGE)
        v_page = self.pool.alloc(PAGE)
        write_kv.launch(self.prep, self.stream, k_new, v_new, k_page, v_page)
        seq.k_pages.append(k_page)
        seq.v_pages.append(v_page)

    def gather_keys(self, seq_id: int) -> np.ndarray:
        pages = self.seqs[seq_id].k_pages
        return np.concatenate([p.to_numpy(self.stream)[:PAGE] for p in pages]).reshape(-1, HEAD_DIM)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    cache = KVCacheManager(num_pages=16, dev=dev, stream=stream)
    rng = np.random.default_rng(3)
    for step in range(3):
        for seq_id in (0, 1):
            k = rng.standard_normal((2, HEAD_DIM)).astype(np.float32)
            v = rng.standard_normal((2, HEAD_DIM)).astype(np.float32)
            cache.append(seq_id, k, v)
    keys = cache.gather_keys(0)
    print("sequence 0 holds", keys.shape[0], "key rows, norm", round(float(np.linalg.norm(keys)), 3))


if __name__ == "__main__":
    main()
