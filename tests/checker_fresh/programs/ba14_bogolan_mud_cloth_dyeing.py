# fresh-expect: clean
# fresh-note: Runs bògòlan bath and mud-paint jobs from a heap of deferred launch closures; a stage change drains every in-flight op first, so a mud job only reads a tannin buffer after the bath op writing it has synced.
"""Bògòlanfini workshop: soaks cotton in n'gallama leaf bath, then paints fermented mud, stage by stage."""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CLOTH_CELLS = 288


@simt.kernel
@simt.launch_contract(block=96)
def leaf_bath(cotton: Slice[f32], tannin: DisjointSlice[f32], strength: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := tannin.get_mut(idx)) is not None:
        cell.set(min(cotton[i] * strength, 1.0))


@simt.kernel
@simt.launch_contract(block=96)
def mud_paint(tannin: Slice[f32], motif: Slice[f32], shade: DisjointSlice[f32], iron: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (cell := shade.get_mut(idx)) is not None:
        cell.set(tannin[i] * motif[i] * iron)


@dataclass
class Job:
    name: str
    stage: int
    launch: object  # a callable that returns the pending DeviceOp


@dataclass(order=True)
class Ticket:
    stage: int
    seq: int
    job: Job = field(compare=False)


class Workshop:
    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        cfg = simt.LaunchConfig1D.for_len(n, block=96)
        self.bath_plan = leaf_bath.prepare(cfg, device)
        self.paint_plan = mud_paint.prepare(cfg, device)
        self.heap: list[Ticket] = []
        self.inflight: list[sk.DeviceOp] = []
        self._seq = itertools.count()

    def commission(self, artisan: str, cotton: np.ndarray, motif: np.ndarray) -> sk.DeviceBuffer:
        raw = sk.to_device(cotton.astype(np.float32), self.stream)
        pattern = sk.to_device(motif.astype(np.float32), self.stream)
        tannin = sk.zeros(self.n, f32, self.stream)
        cloth = sk.zeros(self.n, f32, self.stream)
        bath = Job(f"{artisan}/bath", 0, lambda: leaf_bath.launch_async(self.bath_plan, raw, tannin, 1.4))
        paint = Job(f"{artisan}/mud", 1, lambda: mud_paint.launch_async(self.paint_plan, tannin, pattern, cloth, 0.8))
        for job in (bath, paint):
            heapq.heappush(self.heap, Ticket(job.stage, next(self._seq), job))
        return cloth

    def _drain(self) -> None:
        while self.inflight:
            self.inflight.pop().sync_on(self.stream)

    def run(self) -> int:
        launched, stage = 0, None
        while self.heap:
            ticket = heapq.heappop(self.heap)
            if ticket.stage != stage:
                self._drain()  # the mud goes on only after every leaf bath has dried
                stage = ticket.stage
            self.inflight.append(ticket.job.launch())
            launched += 1
        self._drain()
        return launched


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(47)
    shop = Workshop(device, CLOTH_CELLS)
    cloths = {
        artisan: shop.commission(artisan, rng.uniform(0.4, 0.8, CLOTH_CELLS), (rng.random(CLOTH_CELLS) > 0.5) * 1.0)
        for artisan in ("Nakunte", "Kandioura", "Aminata")
    }
    print("launched", shop.run(), "jobs")
    for artisan, cloth in cloths.items():
        print(f"{artisan:>10}: mean shade {cloth.to_numpy(shop.stream).mean():.4f}")


if __name__ == "__main__":
    main()
