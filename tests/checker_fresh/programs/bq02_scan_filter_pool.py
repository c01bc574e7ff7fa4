# fresh-expect: clean
# fresh-note: the pipeline acquires each stage's output before returning the stage's input to the pool, so a stage never reads and writes one buffer.
"""Vectorized scan pipeline: a column flows through filter/scale/clamp stages, intermediates come from a pool.

Each stage is a SIMT kernel that reads one column and writes a new one.  Intermediate columns are borrowed
from a length-keyed buffer pool so repeated queries over the same table allocate nothing after warm-up.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def filter_gt(col: Slice[f32], out: DisjointSlice[f32], threshold: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = col[i]
        if v > threshold:
            o.set(v)
        else:
            o.set(f32(0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def scale_by(col: Slice[f32], out: DisjointSlice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(col[i] * factor)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def clamp_max(col: Slice[f32], out: DisjointSlice[f32], hi: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(col[i], hi))


class BufferPool:
    """Free lists of device buffers keyed by length; `acquire` reuses a returned buffer when it can."""

    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.free: dict[int, list[sk.DeviceBuffer]] = defaultdict(list)
        self.allocated = 0

    def acquire(self, n: int) -> sk.DeviceBuffer:
        bucket = self.free[n]
        if bucket:
            return bucket.pop()
        self.allocated += 1
        return sk.zeros(n, f32, self.stream)

    def release(self, buf: sk.DeviceBuffer) -> None:
        self.free[len(buf)].append(buf)


@dataclass
class Stage:
    name: str
    kernel: Any
    param: float

    def apply(self, dev: sk.Device, stream: sk.Stream, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        kernel = self.kernel
        prepared = kernel.prepare(simt.LaunchConfig1D.for_len(len(src), block=BLOCK), dev)
        kernel.launch(prepared, stream, src, dst, self.param)


@dataclass
class ScanPipeline:
    dev: sk.Device
    stream: sk.Stream
    pool: BufferPool
    stages: list[Stage] = field(default_factory=list)

    def add(self, name: str, kernel: Any, param: float) -> "ScanPipeline":
        self.stages.append(Stage(name, kernel, param))
        return self

    def run(self, column: sk.DeviceBuffer) -> sk.DeviceBuffer:
        cur = column
        owned = False
        for stage in self.stages:
            out = self.pool.acquire(len(cur))
            stage.apply(self.dev, self.stream, cur, out)
            if owned:
                self.pool.release(cur)  # read by this stage: only now free for the next one
            cur, owned = out, True
        return cur


def reference(values: np.ndarray) -> np.ndarray:
    kept = np.where(values > 0.25, values, 0.0).astype(np.float32)
    return np.minimum(kept * np.float32(4.0), np.float32(3.0))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    pool = BufferPool(stream)
    pipeline = (
        ScanPipeline(dev, stream, pool)
        .add("filter", filter_gt, 0.25)
        .add("scale", scale_by, 4.0)
        .add("clamp", clamp_max, 3.0)
    )
    for batch in range(3):
        values = rng.random(1000).astype(np.float32)
        column = sk.to_device(values, stream)
        result = pipeline.run(column)
        got = result.to_numpy(stream)
        np.testing.assert_allclose(got, reference(values), rtol=1e-6)
        pool.release(result)
        print(f"batch {batch}: {int((got > 0).sum())} rows kept, {pool.allocated} buffers allocated")


if __name__ == "__main__":
    main()
