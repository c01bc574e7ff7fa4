# fresh-expect: E0502 at line 64
# fresh-note: The heartbeat task's MetricTracker.snapshot reads the device stats buffer with to_numpy while the training task's metric launch_async, still pending across `await loader.next_batch()`, writes it.
"""An asyncio training loop that overlaps metric accumulation with batch prefetch, plus a heartbeat logger task."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 64
BATCH = 128
LOSS, CORRECT, COUNT = 0, 1, 2


@simt.kernel
@simt.launch_contract(block=BLOCK)
def accumulate_metrics(prob: Slice[f32], label: Slice[f32], stats: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(prob):
        p = prob[i]
        y = label[i]
        d = p - y
        stats.fetch_add(LOSS, d * d)
        if (p >= 0.5) == (y >= 0.5):
            stats.fetch_add(CORRECT, f32(1.0))
        stats.fetch_add(COUNT, f32(1.0))


@dataclass
class PrefetchLoader:
    stream: sk.Stream
    batches: int
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(23))

    async def next_batch(self) -> tuple[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32]]:
        await asyncio.sleep(0)  # stands in for reading and decoding the next shard
        label = (self.rng.random(BATCH) < 0.5).astype(np.float32)
        prob = np.clip(label * 0.4 + self.rng.random(BATCH) * 0.6, 0.0, 1.0).astype(np.float32)
        return sk.to_device(prob, self.stream), sk.to_device(label, self.stream)


class MetricTracker:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.stats = sk.zeros(3, f32, stream)
        self.launch = accumulate_metrics.prepare(simt.LaunchConfig1D.for_len(BATCH, block=BLOCK), dev)
        self.committed = 0

    def record(self, prob: sk.DeviceBuffer[f32], label: sk.DeviceBuffer[f32]) -> sk.DeviceOp:
        return accumulate_metrics.launch_async(self.launch, prob, label, self.stats)

    def commit(self, pending: sk.DeviceOp) -> None:
        pending.sync_on(self.stream)
        self.committed += 1

    def snapshot(self) -> dict[str, float]:
        loss, correct, count = self.stats.to_numpy(self.stream)
        return {"loss": float(loss / max(count, 1.0)), "acc": float(correct / max(count, 1.0)), "n": float(count)}


async def train(loader: PrefetchLoader, metrics: MetricTracker, done: asyncio.Event) -> None:
    try:
        prob, label = await loader.next_batch()
        for _ in range(loader.batches - 1):
            pending = metrics.record(prob, label)
            prob, label = await loader.next_batch()  # prefetch while the metric kernel runs
            metrics.commit(pending)
        metrics.commit(metrics.record(prob, label))
    finally:
        done.set()


async def heartbeat(metrics: MetricTracker, done: asyncio.Event, every: int = 2) -> list[dict[str, float]]:
    beats: list[dict[str, float]] = []
    tick = 0
    while not done.is_set():
        await asyncio.sleep(0)
        tick += 1
        if tick % every == 0:
            beats.append(metrics.snapshot())
    return beats


async def run() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    metrics = MetricTracker(dev, stream)
    done = asyncio.Event()
    _, beats = await asyncio.gather(train(PrefetchLoader(stream, batches=5), metrics, done), heartbeat(metrics, done))
    for beat in beats:
        print(f"heartbeat: n={beat['n']:.0f} loss={beat['loss']:.4f} acc={beat['acc']:.3f}")
    final = metrics.snapshot()
    print(f"final: {metrics.committed} batches, loss={final['loss']:.4f} acc={final['acc']:.3f}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
