# fresh-expect: clean
# fresh-note: Clean twin: the ScratchPool keeps at least two slots whatever the budget, so the two gradient outputs of the sobel launch are always distinct buffers.
"""Edge detection in the SIMT track: a horizontal box blur, then Sobel gradients into scratch buffers taken from a
budgeted pool, then the gradient magnitude into the edge map."""

from __future__ import annotations

import math
from contextlib import contextmanager
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

W, H = 32, 24


@simt.kernel
@simt.launch_contract(block=64)
def box_blur_x(width: u32, src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    x = i % width
    left = i - 1 if x > 0 else i
    right = i + 1 if x + 1 < width and i + 1 < len(src) else i
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[left] + src[i] + src[right]) / 3.0)


@simt.kernel
@simt.launch_contract(block=64)
def sobel(width: u32, src: Slice[f32], gx: DisjointSlice[f32], gy: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    x = i % width
    n = len(src)
    ok = x > 0 and x + 1 < width and i >= width and i + width < n
    dx = f32(0.0)
    dy = f32(0.0)
    if ok:
        dx = src[i + 1] - src[i - 1]
        dy = src[i + width] - src[i - width]
    if (ox := gx.get_mut(thread.index_1d())) is not None:
        ox.set(dx)
    if (oy := gy.get_mut(thread.index_1d())) is not None:
        oy.set(dy)


@simt.kernel
@simt.launch_contract(block=64)
def magnitude(gx: Slice[f32], gy: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(math.sqrt(gx[i] * gx[i] + gy[i] * gy[i]))


class ScratchPool:
    """A ring of equally sized scratch buffers, sized from a byte budget."""

    MIN_SLOTS = 2  # sobel writes two gradients at once

    def __init__(self, n: int, budget_bytes: int, stream: sk.Stream) -> None:
        slots = max(self.MIN_SLOTS, budget_bytes // (n * 4))
        self._bufs = [sk.zeros(n, f32, stream) for _ in range(slots)]
        self._cursor = 0

    def __len__(self) -> int:
        return len(self._bufs)

    def __getitem__(self, slot: int) -> sk.DeviceBuffer:
        return self._bufs[slot % len(self._bufs)]

    @contextmanager
    def frame(self) -> Iterator[int]:
        start = self._cursor
        try:
            yield start
        finally:
            self._cursor = 0


class EdgePipeline:
    def __init__(self, device: sk.Device, budget_bytes: int) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.n = W * H
        self.pool = ScratchPool(self.n, budget_bytes, self.stream)
        cfg = simt.LaunchConfig1D.for_len(self.n, block=64)
        self.launches = {"blur": box_blur_x.prepare(cfg, device), "sobel": sobel.prepare(cfg, device), "mag": magnitude.prepare(cfg, device)}

    def run(self, image: np.ndarray) -> np.ndarray:
        src = sk.to_device(image.reshape(-1).astype(np.float32), self.stream)
        blurred = sk.zeros(self.n, f32, self.stream)
        edges = sk.zeros(self.n, f32, self.stream)
        box_blur_x.launch(self.launches["blur"], self.stream, W, src, blurred)
        with self.pool.frame() as slot:
            gx, gy = self.pool[slot], self.pool[slot + 1]
            sobel.launch(self.launches["sobel"], self.stream, W, blurred, gx, gy)
            magnitude.launch(self.launches["mag"], self.stream, gx, gy, edges)
        return edges.to_numpy(self.stream).reshape(H, W)


def main() -> None:
    image = np.zeros((H, W), np.float32)
    image[:, W // 2 :] = 1.0  # a vertical step edge
    pipeline = EdgePipeline(sk.Device.default(), budget_bytes=4096)
    edges = pipeline.run(image)
    column = int(np.argmax(edges[H // 2]))
    assert abs(column - W // 2) <= 2, column
    print(f"{len(pipeline.pool)} scratch slot(s); strongest edge at column {column}, max {edges.max():.3f}")


if __name__ == "__main__":
    main()
