# fresh-expect: E0499 at line 86
# fresh-known-miss: cli,mypy a FIFO buffer pool whose `release` runs twice for one buffer (a context manager's exit and a flag-driven release): the buffers a pool's `take()` hands out are new values
# fresh-note: ensemble river routing over a small reach network with a FIFO buffer pool; the confluence reach is flagged as owning its inflow and gives it back, while the lease() context manager that made the temp gives it back too, so the next step's first two takes return one buffer as both outputs.
from __future__ import annotations
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

MEMBERS = 128  # ensemble members routed together


@simt.kernel
@simt.launch_contract(block=64)
def attenuate(inflow: Slice[f32], lateral: Slice[f32], out: DisjointSlice[f32], loss: DisjointSlice[f32], k: f32) -> None:
    i = thread.index_1d().get()
    q = inflow[i] + lateral[i]
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(k * q)
    if (l := loss.get_mut(thread.index_1d())) is not None:
        l.set((f32(1.0) - k) * q)


@simt.kernel
@simt.launch_contract(block=64)
def confluence(a: Slice[f32], b: Slice[f32], total: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := total.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class BufferPool:
    """Recycles ensemble-sized buffers, oldest first."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.free: deque[sk.DeviceBuffer] = deque()
        self.allocated = 0

    def take(self) -> sk.DeviceBuffer:
        if self.free:
            return self.free.popleft()
        self.allocated += 1
        return sk.zeros(MEMBERS, f32, self.stream)

    def give(self, buf: sk.DeviceBuffer) -> None:
        self.free.append(buf)

    @contextmanager
    def lease(self) -> Iterator[sk.DeviceBuffer]:
        buf = self.take()
        try:
            yield buf
        finally:
            self.give(buf)


@dataclass
class Reach:
    name: str
    k: float
    lateral: sk.DeviceBuffer
    upstream: tuple[str, ...] = ()
    owns_inflow: bool = False


class Network:
    def __init__(self, stream: sk.Stream, reaches: list[Reach]) -> None:
        self.stream = stream
        self.pool = BufferPool(stream)
        self.order = reaches
        cfg = simt.LaunchConfig1D.for_len(MEMBERS, block=64)
        self.prep_route = attenuate.prepare(cfg, stream.device)
        self.prep_join = confluence.prepare(cfg, stream.device)

    def route(self, reach: Reach, inflow: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        out, loss = self.pool.take(), self.pool.take()
        attenuate.launch(self.prep_route, self.stream, inflow, reach.lateral, out, loss, reach.k)
        if reach.owns_inflow:
            self.pool.give(inflow)
        return out, loss

    def step(self, headwater: dict[str, sk.DeviceBuffer]) -> tuple[float, float]:
        flows: dict[str, sk.DeviceBuffer] = {}
        losses: list[sk.DeviceBuffer] = []
        for reach in self.order:
            if not reach.upstream:
                flows[reach.name], loss = self.route(reach, headwater[reach.name])
            else:
                a, b = (flows[name] for name in reach.upstream)
                with self.pool.lease() as total:
                    confluence.launch(self.prep_join, self.stream, a, b, total)
                    flows[reach.name], loss = self.route(reach, total)
            losses.append(loss)
        outlet = float(flows[self.order[-1].name].to_numpy(self.stream).mean())
        lost = float(sum(buf.to_numpy(self.stream).sum() for buf in losses)) / MEMBERS
        for buf in [*flows.values(), *losses]:
            self.pool.give(buf)
        return outlet, lost


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(9)
    lateral = {name: sk.to_device(rng.uniform(0.0, 0.5, MEMBERS).astype(np.float32), stream) for name in "abc"}
    net = Network(stream, [
        Reach("north", 0.9, lateral["a"]),
        Reach("east", 0.85, lateral["b"]),
        Reach("outlet", 0.95, lateral["c"], upstream=("north", "east"), owns_inflow=True),
    ])
    balance = []
    for hour in range(5):
        rain = 10.0 + 5.0 * np.sin(hour / 2.0)
        head = {n: sk.to_device(rng.gamma(2.0, rain / 2.0, MEMBERS).astype(np.float32), stream) for n in ("north", "east")}
        balance.append(net.step(head))
    assert all(q > 0 and l > 0 for q, l in balance)
    print("outlet flow by hour:", " ".join(f"{q:.1f}" for q, _ in balance), f"(pool held {net.pool.allocated} buffers)")


if __name__ == "__main__":
    main()
