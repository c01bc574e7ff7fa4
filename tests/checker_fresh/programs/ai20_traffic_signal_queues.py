# fresh-expect: clean
# fresh-note: each corridor coroutine awaits while its own launch_async op is pending on its own buffers, syncs it afterwards, and makes its launch_unchecked call inside a `with simt.unsafe():` block in the same coroutine.
"""Queue lengths at the signalised intersections of several city corridors, one coroutine per corridor.

Every signal cycle each approach's queue grows by its arrivals and drains at the saturation flow while the light is
green (one SIMT kernel, launched asynchronously); queues longer than the link's storage spill back and are capped by
a second kernel.  Corridors run together under asyncio.gather; the host reports the mean and worst queue.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

APPROACHES = 300
CYCLES = 12
SATURATION = 18.0
STORAGE = 40.0


@simt.kernel
@simt.launch_contract(block=128)
def discharge(queue: Slice[f32], arrivals: Slice[f32], green: Slice[f32], out: DisjointSlice[f32],
              saturation: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(queue[i] + arrivals[i] - green[i] * saturation, f32(0.0)))


@simt.kernel
@simt.launch_contract(block=128)
def cap_spillback(queue: Slice[f32], out: DisjointSlice[f32], storage: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(queue[i], storage))


@dataclass
class Corridor:
    name: str
    queue: sk.DeviceBuffer
    nxt: sk.DeviceBuffer
    green: sk.DeviceBuffer
    demand: float


async def simulate_corridor(dev: sk.Device, stream: sk.Stream, c: Corridor, seed: int) -> tuple[str, float, float]:
    rng = np.random.default_rng(seed)
    cfg = simt.LaunchConfig1D.for_len(APPROACHES, block=128)
    prep = discharge.prepare(cfg, dev)
    for _ in range(CYCLES):
        arrivals = sk.to_device(rng.poisson(c.demand, APPROACHES).astype(np.float32), stream)
        pending = discharge.launch_async(prep, c.queue, arrivals, c.green, c.nxt, SATURATION)
        await asyncio.sleep(0)
        pending.sync_on(stream)
        with simt.unsafe():
            cap_spillback.launch_unchecked(cfg, stream, c.nxt, c.queue, STORAGE)
    q = c.queue.to_numpy(stream)
    return c.name, float(q.mean()), float(q.max())


def make_corridor(stream: sk.Stream, name: str, demand: float, rng: np.random.Generator) -> Corridor:
    green = rng.uniform(0.35, 0.6, APPROACHES).astype(np.float32)
    return Corridor(name, sk.zeros(APPROACHES, f32, stream), sk.zeros(APPROACHES, f32, stream),
                    sk.to_device(green, stream), demand)


async def run_all(dev: sk.Device, stream: sk.Stream) -> list[tuple[str, float, float]]:
    rng = np.random.default_rng(99)
    corridors = [make_corridor(stream, name, d, rng) for name, d in (("harbour", 6.0), ("ring", 9.0), ("airport", 11.0))]
    return list(await asyncio.gather(*(simulate_corridor(dev, stream, c, k) for k, c in enumerate(corridors))))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    for name, mean_q, worst in asyncio.run(run_all(dev, stream)):
        print(f"{name:8s}: mean queue {mean_q:5.2f} veh, worst {worst:5.1f} veh (storage {STORAGE:.0f})")


if __name__ == "__main__":
    main()
