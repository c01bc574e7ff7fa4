# fresh-expect: E0502 at line 50
# fresh-known-miss: cli,mypy a ring buffer class's __getitem__ with step % depth: ring[t+1] is ring[t-1] when depth is 2; computed indices of a user container are not followed
"""Leapfrog time stepping of the 1-D wave equation with a ring of reusable state buffers."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def wave_step(prev: Slice[f32], cur: Slice[f32], nxt: DisjointSlice[f32], c2: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(cur)
    if (o := nxt.get_mut(idx)) is not None:
        if i == 0 or i == n - 1:
            o.set(f32(0.0))
        else:
            o.set(f32(2.0) * cur[i] - prev[i] + c2 * (cur[i - 1] - f32(2.0) * cur[i] + cur[i + 1]))


class StateRing:
    """Time levels t, t+1, ... stored in a fixed number of buffers reused round-robin."""

    def __init__(self, n: int, depth: int, stream: sk.Stream) -> None:
        self._bufs = [sk.zeros(n, f32, stream) for _ in range(depth)]

    def __getitem__(self, step: int) -> sk.DeviceBuffer:
        return self._bufs[step % len(self._bufs)]

    def __len__(self) -> int:
        return len(self._bufs)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 400
    x = np.linspace(0.0, 1.0, n, dtype=np.float32)
    pulse = np.exp(-((x - 0.5) ** 2) / 0.002).astype(np.float32)
    ring = StateRing(n, depth=2, stream=stream)  # double buffering, as for the heat equation
    ring[0].copy_from_numpy(pulse, stream)
    ring[1].copy_from_numpy(pulse, stream)
    prep = wave_step.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    steps = 50
    for t in range(1, steps):
        wave_step.launch(prep, stream, ring[t - 1], ring[t], ring[t + 1], 0.25)
    final = ring[steps].to_numpy(stream)
    print("energy", float((final**2).sum()), "peak", float(final.max()))
    assert np.isfinite(final).all()


if __name__ == "__main__":
    main()
