# fresh-expect: clean
# fresh-note: Metro station escalator load balancing; passenger queues diffuse between neighbouring escalators with a two-slot deque that is rotated after each step so the launch always reads one slot and writes the other.
"""Rush-hour queue balancing across the escalator banks of a metro interchange."""

from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BANKS = 64


@simt.kernel
@simt.launch_contract(block=32)
def rebalance(queue: Slice[f32], capacity: Slice[f32], nxt: DisjointSlice[f32], share: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(queue)
    left = queue[(i + n - 1) % n] / capacity[(i + n - 1) % n]
    right = queue[(i + 1) % n] / capacity[(i + 1) % n]
    mine = queue[i] / capacity[i]
    if (o := nxt.get_mut(idx)) is not None:
        o.set(queue[i] + share * capacity[i] * (left + right - f32(2.0) * mine))


class Interchange:
    def __init__(self, dev: sk.Device, stream: sk.Stream, capacity: np.ndarray) -> None:
        self.stream = stream
        self.capacity = sk.to_device(capacity, stream)
        self.ring = deque([sk.zeros(BANKS, f32, stream), sk.zeros(BANKS, f32, stream)], maxlen=2)
        self.prepared = rebalance.prepare(simt.LaunchConfig1D.for_len(BANKS, block=32), dev)

    def load(self, arrivals: np.ndarray) -> None:
        self.ring[0].copy_from_numpy(arrivals.astype(np.float32))

    def step(self, share: float) -> None:
        src, dst = self.ring[0], self.ring[1]
        rebalance.launch(self.prepared, self.stream, src, self.capacity, dst, share)
        self.ring.rotate(1)

    def imbalance(self) -> float:
        q = self.ring[0].to_numpy(self.stream)
        return float(q.max() - q.min())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(23)
    capacity = rng.choice([1.0, 1.5], BANKS).astype(np.float32)
    station = Interchange(dev, stream, capacity)
    for wave, crowd in enumerate((300.0, 900.0)):
        arrivals = rng.poisson(crowd / BANKS, BANKS).astype(np.float32)
        arrivals[rng.integers(0, BANKS, 4)] += crowd / 10
        station.load(arrivals)
        for minute in range(1, 25):
            station.step(share=0.22)
            if station.imbalance() < 8.0:
                print(f"wave {wave}: balanced after {minute} min")
                break
        else:
            print(f"wave {wave}: still {station.imbalance():.1f} passengers apart after 24 min")


if __name__ == "__main__":
    main()
