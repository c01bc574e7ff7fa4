# fresh-expect: clean
# fresh-note: An asyncio dashboard computes sliding-window means of order sizes with launch_async and publishes each panel; the pending launch is synced before the publish coroutine copies the means buffer to the host.
"""Sliding-window means for a live dashboard: async SIMT launches driven from asyncio coroutines."""

from __future__ import annotations

import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SPAN = 8
N = 160


@simt.kernel
@simt.launch_contract(block=32)
def sliding_mean(events: Slice[f32], means: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (m := means.get_mut(idx)) is not None:
        acc = f32(0.0)
        lo = max(0, i - SPAN + 1)
        for j in range(lo, i + 1):
            acc += events[j]
        m.set(acc / f32(i + 1 - lo))


class Panel:
    def __init__(self, name: str, stream: sk.Stream) -> None:
        self.name = name
        self.stream = stream
        self.buffers = {"events": sk.zeros(N, f32, stream), "means": sk.zeros(N, f32, stream)}
        self.published: list[float] = []


async def publish(panel: Panel) -> None:
    await asyncio.sleep(0)
    latest = panel.buffers["means"].to_numpy(panel.stream)
    panel.published.append(float(latest[-1]))


async def tick(panel: Panel, prep: simt.PreparedLaunch, orders: np.ndarray) -> None:
    panel.buffers["events"] = sk.to_device(orders, panel.stream)
    pending = sliding_mean.launch_async(prep, panel.buffers["events"], panel.buffers["means"])
    pending.sync_on(panel.stream)
    await publish(panel)


async def dashboard(panels: list[Panel], prep: simt.PreparedLaunch, feed: dict[str, list[np.ndarray]]) -> None:
    for step in range(2):
        await asyncio.gather(*(tick(p, prep, feed[p.name][step]) for p in panels))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(2)
    prep = sliding_mean.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    panels = [Panel(name, stream) for name in ("eu", "us")]
    feed = {p.name: [rng.gamma(2.0, 30.0, N).astype(np.float32) for _ in range(2)] for p in panels}
    asyncio.run(dashboard(panels, prep, feed))
    for p in panels:
        want = [float(batch[-SPAN:].mean()) for batch in feed[p.name]]
        np.testing.assert_allclose(p.published, want, rtol=1e-5)
        print(f"{p.name}: last sliding means {[round(v, 2) for v in p.published]}")


if __name__ == "__main__":
    main()
