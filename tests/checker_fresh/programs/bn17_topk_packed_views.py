# fresh-expect: E0499 at line 73
# fresh-note: Top-k largest trades via per-segment top-2 candidates written into one packed result buffer; the layout helper starts the `second` lane at `segs` instead of `1 + segs`, so its view overlaps the last slot of the `first` view and the launch gets overlapping mutable outputs (E0499).
"""Top-k largest trade notionals (SIMT track).

The trades are cut into fixed-length segments; one thread per segment finds the segment's two largest values.
Both candidate lanes live in one packed buffer `[segs | first[0..segs) | second[0..segs)]` that the host reads
back in one copy and merges with heapq.
"""
from __future__ import annotations

import heapq
from itertools import chain

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread

SEG = 16


@simt.kernel
@simt.launch_contract(block=32)
def seg_top2(vals: Slice[f32], seg_len: i32, first: DisjointSlice[f32], second: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    s = idx.get()
    b1 = f32(-1.0e30)
    b2 = f32(-1.0e30)
    start = s * seg_len
    for j in range(seg_len):
        k = start + j
        if k < len(vals):
            v = vals[k]
            if v > b1:
                b2 = b1
                b1 = v
            elif v > b2:
                b2 = v
    if (o := first.get_mut(idx)) is not None:
        o.set(b1)
    if (o2 := second.get_mut(thread.index_1d())) is not None:
        o2.set(b2)


class TopK:
    def __init__(self, device: sk.Device, k: int) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.k = k

    @staticmethod
    def segments(n: int) -> int:
        return (n + SEG - 1) // SEG

    @staticmethod
    def lanes(packed: sk.DeviceBuffer, segs: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        header = 1
        first = packed.view(header, header + segs)
        second = packed.view(segs, header + 2 * segs)
        return first, second

    def packed_buffer(self, segs: int) -> sk.DeviceBuffer:
        host = np.zeros(1 + 2 * segs, np.float32)
        host[0] = segs
        return sk.to_device(host, self.stream)

    def candidates(self, vals: sk.DeviceBuffer, segs: int) -> np.ndarray:
        packed = self.packed_buffer(segs)
        first, second = self.lanes(packed, segs)
        prepared = seg_top2.prepare(simt.LaunchConfig1D.for_len(segs, block=32), self.device)
        seg_top2.launch(prepared, self.stream, vals, SEG, first, second)
        return packed.to_numpy(self.stream)

    def __call__(self, notional: np.ndarray) -> list[float]:
        segs = self.segments(len(notional))
        vals = sk.to_device(notional.astype(np.float32), self.stream)
        packed = self.candidates(vals, segs)
        n_segs = int(packed[0])
        firsts, seconds = packed[1:1 + n_segs], packed[1 + n_segs:]
        pool = (float(v) for v in chain(firsts, seconds) if v > -1.0e29)
        return heapq.nlargest(self.k, pool)


def main() -> None:
    rng = np.random.default_rng(4)
    notional = rng.pareto(2.5, 500) * 1e5
    top = TopK(sk.Device.cpu(), k=5)(notional)
    want = sorted(notional.astype(np.float32).tolist(), reverse=True)[:5]
    # the top-5 are exact unless three of them share a segment
    assert top[0] == want[0]
    for rank, value in enumerate(top, start=1):
        print(f"#{rank}: {value:,.0f}")


if __name__ == "__main__":
    main()
