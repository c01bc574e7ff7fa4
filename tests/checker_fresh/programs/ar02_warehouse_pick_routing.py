# fresh-expect: clean
# fresh-note: warehouse aisle pick routing; travel costs relax with ping-pong buffers and a dict lookup whose fallback is a separate scratch buffer, never an input.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SLOTS = 96


@simt.kernel
@simt.launch_contract(block=32)
def relax_aisle(cost: Slice[f32], step: Slice[f32], nxt: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(cost)
    if (out := nxt.get_mut(idx)) is not None:
        best = cost[i]
        if i > 0:
            best = min(best, cost[i - 1] + step[i])
        if i + 1 < n:
            best = min(best, cost[i + 1] + step[i])
        out.set(best)


@dataclass
class Aisle:
    name: str
    step_cost: np.ndarray
    dock_slot: int


class Router:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = relax_aisle.prepare(simt.LaunchConfig1D.for_len(SLOTS, block=32), dev)
        self.scratch = sk.zeros(SLOTS, f32, stream)
        self.named: dict[str, sk.DeviceBuffer] = {}

    def target(self, key: str) -> sk.DeviceBuffer:
        return self.named.get(key, self.scratch)

    def route(self, aisle: Aisle, sweeps: int) -> np.ndarray:
        init = np.full(SLOTS, 1e6, np.float32)
        init[aisle.dock_slot] = 0.0
        cur = sk.to_device(init, self.stream)
        step = sk.to_device(aisle.step_cost.astype(np.float32), self.stream)
        nxt = self.target(aisle.name)
        for _ in range(sweeps):
            relax_aisle.launch(self.plan, self.stream, cur, step, nxt)
            cur, nxt = nxt, cur
        return cur.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    router = Router(dev, stream)
    router.named["cold_store"] = sk.zeros(SLOTS, f32, stream)
    rng = np.random.default_rng(3)
    aisles = [
        Aisle("cold_store", rng.uniform(1.0, 2.0, SLOTS), dock_slot=0),
        Aisle("bulk", rng.uniform(0.5, 3.0, SLOTS), dock_slot=SLOTS // 2),
    ]
    for aisle in aisles:
        costs = router.route(aisle, sweeps=8)
        reachable = costs < 1e5
        print(f"{aisle.name}: {reachable.sum()} slots reached, farthest {costs[reachable].max():.1f}")


if __name__ == "__main__":
    main()
