# fresh-expect: E0502 at line 47
# fresh-known-miss: cli,mypy a bounded deque ring that holds one buffer until after the first launch: ring[-1] and ring[0] are the same buffer
"""Temporal smoothing of a sensor image stream with an exponential moving average.

The smoother keeps the last few EMA states in a ring (a bounded deque of device buffers) so a monitoring page can
show how the estimate evolved; every update writes the new state into the oldest slot and rotates the ring.
"""

from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PIXELS = 256


@simt.kernel
@simt.launch_contract(block=128)
def ema(prev: Slice[f32], frame: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(prev[i] + alpha * (frame[i] - prev[i]))


class Smoother:
    def __init__(self, dev: sk.Device, stream: sk.Stream, alpha: float = 0.5, depth: int = 3) -> None:
        self.stream = stream
        self.alpha = alpha
        self.prep = ema.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
        self.ring: deque[sk.DeviceBuffer] = deque([sk.zeros(PIXELS, f32, stream)], maxlen=depth)
        self.updates = 0

    def _grow(self) -> None:
        if len(self.ring) < (self.ring.maxlen or 1):
            self.ring.appendleft(sk.zeros(PIXELS, f32, self.stream))

    def update(self, frame: sk.DeviceBuffer) -> None:
        prev = self.ring[-1]
        target = self.ring[0]
        ema.launch(self.prep, self.stream, prev, frame, target, self.alpha)
        self.ring.rotate(-1)
        self._grow()
        self.updates += 1

    def history(self) -> list[float]:
        return [float(buf.to_numpy(self.stream).mean()) for buf in self.ring]


def frames(count: int, stream: sk.Stream):
    rng = np.random.default_rng(2)
    for _ in range(count):
        yield sk.to_device((10.0 + rng.standard_normal(PIXELS)).astype(np.float32), stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    smoother = Smoother(dev, stream)
    for frame in frames(4, stream):
        smoother.update(frame)
    means = smoother.history()
    print(f"{smoother.updates} updates; ring means (oldest first):", [round(m, 3) for m in means])
    assert means[-1] > means[0]


if __name__ == "__main__":
    main()
