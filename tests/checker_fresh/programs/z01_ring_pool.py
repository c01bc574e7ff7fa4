# fresh-expect: E0502 at line 63
# fresh-known-miss: cli,mypy a deque ring sized len(streams) holding one buffer, read twice through a method (rotate + [0]): deques are not followed
"""Exponential smoothing of a noisy sensor feed.

Each step blends the previous smoothed frame with a new sample into the next buffer of a
small ring of device buffers, so no frame is reallocated per step.
"""
from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024
ALPHA = 0.25


@simt.kernel
@simt.launch_contract(block=128)
def blend(prev: Slice[f32], sample: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * sample[i] + (1.0 - alpha) * prev[i])


class BufferRing:
    """Round-robin pool of equally sized device buffers, one per lane of work."""

    def __init__(self, n: int, depth: int, stream: sk.Stream) -> None:
        self._ring: deque[sk.DeviceBuffer] = deque(sk.zeros(n, f32, stream) for _ in range(max(1, depth)))

    def next(self) -> sk.DeviceBuffer:
        self._ring.rotate(-1)
        return self._ring[0]

    def __len__(self) -> int:
        return len(self._ring)


def sensor_samples(steps: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        yield (1.0 + 0.1 * rng.standard_normal(N)).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    streams = [dev.new_stream()]  # one lane of work on this machine
    stream = streams[0]
    ring = BufferRing(N, depth=len(streams), stream=stream)
    prepared = blend.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)

    state = ring.next()
    for step, host in enumerate(sensor_samples(4)):
        sample = sk.to_device(host, stream)
        out = ring.next()
        blend.launch(prepared, stream, state, sample, out, ALPHA)
        state = out
        print(f"step {step}: ring of {len(ring)}, mean {float(state.to_numpy(stream).mean()):.3f}")


if __name__ == "__main__":
    main()
