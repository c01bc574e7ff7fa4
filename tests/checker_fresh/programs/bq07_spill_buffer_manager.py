# fresh-expect: E0505 at line 98
# fresh-known-miss: cli,mypy an evicted page put on a recycle list while its async spill op is pending, then taken back and partitioned: a pending op's loans are not followed through a recycle list
# fresh-note: an evicted page's buffer goes onto the recycle list while its asynchronous spill kernel is still pending, and the next materialization partitions that buffer for a tile launch.
"""A device buffer manager for column pages with spill-to-host and page recycling.

Pages of a fixed size hold column chunks on the device.  Under memory pressure the manager evicts the least
recently used page: a SIMT kernel packs it (quantized to a fixed-point grid) into a staging buffer, the staged
bytes are copied to host at the next flush, and the page's memory is recycled as the output of the next
computed column (a tile kernel).
"""

from __future__ import annotations

from collections import OrderedDict
from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PAGE = 512
TILE = 128
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(page) == len(packed)",))
def pack_page(page: Slice[f32], packed: DisjointSlice[f32], grid_step: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := packed.get_mut(idx)) is not None:
        o.set(f32(int(page[i] / grid_step + 0.5)) * grid_step)


@tile.kernel
def multiply(out: Partition[f32], a: Tensor[f32], b: Tensor[f32]) -> None:
    out.store(tile.load_like(a, out) * tile.load_like(b, out))


class PageManager:
    def __init__(self, dev: sk.Device, stream: sk.Stream, capacity: int) -> None:
        self.dev = dev
        self.stream = stream
        self.capacity = capacity
        self.resident: OrderedDict[str, sk.DeviceBuffer] = OrderedDict()
        self.recycled: list[tuple[str, sk.DeviceBuffer]] = []
        self.inflight: dict[str, tuple[sk.DeviceOp, sk.DeviceBuffer]] = {}
        self.spilled: dict[str, np.ndarray] = {}
        self.pinned: set[str] = set()
        self.prepared = pack_page.prepare(simt.LaunchConfig1D.for_len(PAGE, block=BLOCK), dev)

    def load(self, name: str, values: np.ndarray) -> None:
        self._make_room()
        self.resident[name] = sk.to_device(values.astype(np.float32), self.stream)

    @contextmanager
    def pinned_page(self, name: str) -> Iterator[sk.DeviceBuffer]:
        self.resident.move_to_end(name)
        self.pinned.add(name)
        try:
            yield self.resident[name]
        finally:
            self.pinned.discard(name)

    def _make_room(self) -> None:
        while len(self.resident) >= self.capacity:
            victim = next(n for n in self.resident if n not in self.pinned)
            self._evict(victim)

    def _evict(self, name: str) -> None:
        page = self.resident.pop(name)
        staging = sk.zeros(PAGE, f32, self.stream)
        pending = pack_page.launch_async(self.prepared, page, staging, 1.0 / 64.0)
        self.inflight[name] = (pending, staging)
        self.recycled.append((name, page))

    def _drain(self, name: str) -> None:
        entry = self.inflight.pop(name, None)
        if entry is not None:
            pending, staging = entry
            pending.sync_on(self.stream)
            self.spilled[name] = staging.to_numpy(self.stream)

    def flush(self) -> None:
        for name in list(self.inflight):
            self._drain(name)

    def materialize(self, name: str, a: np.ndarray, b: np.ndarray) -> None:
        """Compute `a * b` into a recycled page (or a fresh one) and make it resident under `name`."""
        self._make_room()
        if self.recycled:
            _old, buf = self.recycled.pop()
            out = buf.partition((TILE,))
        else:
            out = sk.zeros(PAGE, f32, self.stream).partition((TILE,))
        out, _a, _b = multiply(out, tile.from_numpy(a), tile.from_numpy(b)).sync_on(self.stream)
        self.resident[name] = out.unpartition().as_buffer()


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(5)
    mgr = PageManager(dev, stream, capacity=3)
    cols = {name: rng.random(PAGE).astype(np.float32) for name in ("price", "qty", "discount", "tax")}
    for name, values in cols.items():
        mgr.load(name, values)
    with mgr.pinned_page("tax") as tax:
        assert tax.to_numpy(stream)[0] == cols["tax"][0]
        mgr.materialize("revenue", cols["price"], cols["qty"])
    mgr.flush()
    revenue = mgr.resident["revenue"].to_numpy(stream)
    np.testing.assert_allclose(revenue, cols["price"] * cols["qty"], rtol=1e-6)
    for name, packed in mgr.spilled.items():
        assert np.abs(packed - cols[name]).max() <= 1.0 / 128.0 + 1e-6, name
    print(f"resident: {list(mgr.resident)}; spilled: {sorted(mgr.spilled)}")


if __name__ == "__main__":
    main()
