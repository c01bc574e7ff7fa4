# fresh-expect: E0502 at line 58
# fresh-known-miss: cli,mypy a gathered coroutine reads, through a property, the buffer the other's pending op writes after a ping-pong swap of two attributes: a property's result after the swap is not related to the swapped attribute
# fresh-note: the `latest` property returns the buffer the producer's next `launch_async` is writing (the ping-pong swap already happened), so the monitor coroutine reads it on the host while that op is pending.
"""A block echo (feedback delay of one block) streamed with asyncio: a producer coroutine launches each block
asynchronously and yields to the event loop while the device works, and a monitor coroutine reports the peak
of the most recent block."""

from __future__ import annotations

import asyncio

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 200


@simt.kernel
@simt.launch_contract(block=64)
def echo(x: Slice[f32], prev: Slice[f32], y: DisjointSlice[f32], feedback: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] + feedback * prev[i])


class EchoStream:
    def __init__(self, dev: sk.Device, feedback: float) -> None:
        self.stream = dev.new_stream()
        self.feedback = feedback
        self.prep = echo.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=64), dev)
        self.prev = sk.zeros(FRAMES, f32, self.stream)  # the last finished block
        self.out = sk.zeros(FRAMES, f32, self.stream)  # where the next block is written
        self.rendered: list[np.ndarray] = []
        self.peaks: list[float] = []

    @property
    def latest(self) -> sk.DeviceBuffer:
        """The most recently rendered block."""
        return self.out

    async def produce(self, blocks: list[np.ndarray]) -> None:
        for block in blocks:
            x = sk.to_device(block, self.stream)
            pending = echo.launch_async(self.prep, x, self.prev, self.out, self.feedback)
            await asyncio.sleep(0)  # let the monitor run while the block renders
            pending.sync_on(self.stream)
            self.prev, self.out = self.out, self.prev
            self.rendered.append(self.prev.to_numpy(self.stream))

    async def monitor(self, reports: int) -> None:
        for _ in range(reports):
            await asyncio.sleep(0)
            self.peaks.append(float(np.abs(self.latest.to_numpy(self.stream)).max()))


async def session(es: EchoStream, blocks: list[np.ndarray]) -> None:
    await asyncio.gather(es.produce(blocks), es.monitor(len(blocks)))


def main() -> None:
    dev = sk.Device.default()
    es = EchoStream(dev, feedback=0.5)
    burst = np.zeros(FRAMES, np.float32)
    burst[:20] = np.hanning(20).astype(np.float32)
    blocks = [burst] + [np.zeros(FRAMES, np.float32) for _ in range(4)]
    asyncio.run(session(es, blocks))
    want = [burst * np.float32(0.5**k) for k in range(len(blocks))]
    for got, ref in zip(es.rendered, want, strict=True):
        np.testing.assert_allclose(got, ref, rtol=1e-6)
    print("echo peaks seen by the monitor:", [f"{p:.3f}" for p in es.peaks])


if __name__ == "__main__":
    main()
