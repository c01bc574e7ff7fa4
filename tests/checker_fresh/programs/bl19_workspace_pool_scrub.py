# fresh-expect: E0505 at line 55
# fresh-known-miss: cli,mypy a `@contextmanager` whose `finally` partitions the tensor whose `as_buffer()` it yielded, while a pending op started in the with-block borrows that buffer: the generator's exit code is not run at the with-block's end with the yielded view's base
# fresh-note: multi-tenant feature service whose handle() issues postprocess with launch_async on a leased staging buffer and defers the sync to flush(); leaving the lease's with-block runs the pool's finally/_release, which partitions (moves) the staging tensor for scrubbing while the pending op still borrows it (line 54).
"""Multi-tenant feature service with a workspace pool that scrubs buffers between tenants.

Workspaces are 1-D tile tensors kept in a free list.  A request leases one with a context manager, which
lends it to SIMT code as a `DeviceBuffer` (`as_buffer`) and, when the lease ends, zeroes it with a tile
kernel before it goes back to the free list, so one tenant's features never leak into another's.
Post-processing launches are issued asynchronously and synced in batches by `flush()`.
"""

from __future__ import annotations

import contextlib
from collections import deque
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 128
BLOCK = 64
TILE = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def postprocess(x: Slice[f32], y: DisjointSlice[f32], scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        out.set(x[i] * scale + 1.0)


@tile.kernel
def scrub(z: Partition[f32]) -> None:
    z.store(tile.zeros(z.tile_shape, f32))


class WorkspacePool:
    def __init__(self, stream: sk.Stream, scrub_on_release: bool = True) -> None:
        self.stream = stream
        self.scrub_on_release = scrub_on_release
        self._free: deque[Tensor] = deque()
        self.scrubbed = 0

    def _release(self, ws: Tensor) -> None:
        if self.scrub_on_release:
            (part,) = scrub(ws.partition((TILE,))).sync_on(self.stream)
            ws = part.unpartition()
            self.scrubbed += 1
        self._free.append(ws)

    @contextlib.contextmanager
    def lease(self) -> Iterator[sk.DeviceBuffer]:
        ws = self._free.popleft() if self._free else tile.zeros((N,), f32).sync_on(self.stream)
        try:
            yield ws.as_buffer()
        finally:
            self._release(ws)


@dataclass
class Request:
    tenant: str
    features: np.ndarray
    scale: float = 2.0


class FeatureService:
    def __init__(self, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.pool = WorkspacePool(self.stream)
        self.prepared = postprocess.prepare(simt.LaunchConfig1D.for_len(N, block=BLOCK), device)
        self.inflight: list[tuple[str, sk.DeviceOp, sk.DeviceBuffer]] = []

    def handle(self, req: Request) -> None:
        out = sk.zeros(N, f32, self.stream)
        with self.pool.lease() as staging:
            staging.copy_from_numpy(req.features.astype(np.float32), self.stream)
            op = postprocess.launch_async(self.prepared, staging, out, req.scale)
            self.inflight.append((req.tenant, op, out))

    def flush(self) -> dict[str, np.ndarray]:
        results: dict[str, np.ndarray] = {}
        while self.inflight:
            tenant, op, out = self.inflight.pop(0)
            op.sync_on(self.stream)
            results[tenant] = out.to_numpy(self.stream)
        return results


def main() -> None:
    service = FeatureService(sk.Device.cpu())
    rng = np.random.default_rng(21)
    for tenant in ("acme", "globex", "initech"):
        service.handle(Request(tenant, rng.standard_normal(N)))
    results = service.flush()
    print({t: round(float(v.mean()), 4) for t, v in results.items()}, "scrubbed:", service.pool.scrubbed)


if __name__ == "__main__":
    main()
