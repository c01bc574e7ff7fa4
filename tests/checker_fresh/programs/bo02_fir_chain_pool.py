# fresh-expect: clean
# fresh-note: each stage's output is acquired outright and only the consumed input goes back to the pool, so a stage never gets its own input as output.
"""A cascade of FIR stages (pre-emphasis, smoothing, DC notch) over one mono block.

Intermediate buffers come from a small pool so that a long chain does not allocate per stage.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def fir(x: Slice[f32], taps: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := y.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(len(taps)):
            if i >= k:
                acc += taps[k] * x[i - k]
        out.set(acc)


class BufferPool:
    """Recycles f32 device buffers by length."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._free: dict[int, list[sk.DeviceBuffer]] = {}
        self.allocations = 0

    def acquire(self, n: int) -> sk.DeviceBuffer:
        free = self._free.get(n)
        if free:
            return free.pop()
        self.allocations += 1
        return sk.zeros(n, f32, self.stream)

    def release(self, buf: sk.DeviceBuffer) -> None:
        self._free.setdefault(len(buf), []).append(buf)

    @contextlib.contextmanager
    def scratch(self, n: int) -> Iterator[sk.DeviceBuffer]:
        buf = self.acquire(n)
        try:
            yield buf
        finally:
            self.release(buf)


@dataclass
class FirStage:
    name: str
    coeffs: list[float]
    taps: sk.DeviceBuffer | None = field(default=None, repr=False)


class FirChain:
    def __init__(self, dev: sk.Device, stages: list[FirStage]) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.pool = BufferPool(self.stream)
        self.stages = stages
        for st in self.stages:
            st.taps = sk.to_device(np.asarray(st.coeffs, dtype=np.float32), self.stream)
        self._launches: dict[int, simt.PreparedLaunch] = {}

    def launch_for(self, n: int) -> simt.PreparedLaunch:
        if n not in self._launches:
            self._launches[n] = fir.prepare(simt.LaunchConfig1D.for_len(n, block=128), self.dev)
        return self._launches[n]

    def process(self, block: np.ndarray) -> np.ndarray:
        n = len(block)
        cur = sk.to_device(block.astype(np.float32), self.stream)
        for stage in self.stages:
            out = self.pool.acquire(n)
            fir.launch(self.launch_for(n), self.stream, cur, stage.taps, out)
            self.pool.release(cur)  # the stage has consumed its input; recycle it
            cur = out
        return cur.to_numpy(self.stream)


def reference(block: np.ndarray, stages: list[FirStage]) -> np.ndarray:
    y = block.astype(np.float32)
    for st in stages:
        y = np.convolve(y, np.asarray(st.coeffs, dtype=np.float32))[: len(y)].astype(np.float32)
    return y


def main() -> None:
    dev = sk.Device.default()
    stages = [
        FirStage("pre-emphasis", [1.0, -0.97]),
        FirStage("smooth", [0.25, 0.5, 0.25]),
        FirStage("dc-notch", [1.0, -1.0]),
    ]
    chain = FirChain(dev, stages)
    t = np.arange(512) / 8000.0
    block = (0.5 * np.sin(2 * np.pi * 440 * t) + 0.1).astype(np.float32)
    got = chain.process(block)
    want = reference(block, stages)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    print(f"fir chain: {len(stages)} stages, {chain.pool.allocations} pool allocations, y[:3]={got[:3]}")


if __name__ == "__main__":
    main()
