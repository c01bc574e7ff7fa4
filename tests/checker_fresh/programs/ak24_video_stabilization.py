# fresh-expect: clean
# fresh-note: Trajectory-smoothing video stabilizer that measures projections in the tile track, lends each frame tensor to the SIMT warp and syncs that pending warp before the frame moves into the background-model launch.
from __future__ import annotations

from collections import deque
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

H, W = 32, 32
RB = 16


@tile.kernel
def projections(rows: Partition[f32], cols: Partition[f32], frame: Tensor[f32], h: i32) -> None:
    rows.store(tile.sum(tile.reshape(frame.load((tile.bid(0),), (RB * W,)), (RB, W)), axis=1))
    half = tile.bid(0)
    acc = tile.zeros((W // 2,), f32)
    for r in range(h):
        acc = acc + frame.load((2 * r + half,), (W // 2,))
    cols.store(acc)


@tile.kernel
def bg_update(bg: Partition[f32], frame: Tensor[f32], rate: f32) -> None:
    bg.store(bg.load() * (1.0 - rate) + tile.load_like(frame, bg) * rate)


@simt.kernel
@simt.launch_contract(block=128)
def warp_shift(src: Slice[f32], dst: DisjointSlice[f32], w: i32, h: i32, dx: i32, dy: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(src) and (o := dst.get_mut(idx)) is not None:
        x = min(max(i % w + dx, 0), w - 1)
        y = min(max(i // w + dy, 0), h - 1)
        o.set(src[y * w + x])


def shift_between(ref: np.ndarray, cur: np.ndarray, radius: int = 4) -> int:
    scores = [np.abs(np.roll(cur, s) - ref)[radius:-radius].sum() for s in range(-radius, radius + 1)]
    return int(np.argmin(scores)) - radius


class PathSmoother:
    def __init__(self, dev: sk.Device, stream: sk.Stream, window: int = 3) -> None:
        self.stream = stream
        self.warp = warp_shift.prepare(simt.LaunchConfig1D.for_len(H * W, block=128), dev)
        self.bg = tile.zeros((H * W,), f32).partition((128,))
        self.path = np.zeros(2)
        self.recent: deque[np.ndarray] = deque(maxlen=window)
        self.prev: tuple[np.ndarray, np.ndarray] | None = None

    def _measure(self, frame: tile.Tensor) -> tuple[tile.Tensor, np.ndarray, np.ndarray]:
        rows = tile.zeros((H,), f32).partition((RB,))
        cols = tile.zeros((W,), f32).partition((W // 2,))
        rows, cols, frame, _h = projections(rows, cols, frame, H).sync_on(self.stream)
        return frame, rows.to_numpy(self.stream), cols.to_numpy(self.stream)

    def stabilize(self, frames: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
        for raw in frames:
            cur = tile.from_numpy(raw.ravel()).sync_on(self.stream)
            cur, row_p, col_p = self._measure(cur)
            if self.prev is not None:
                self.path = self.path + [shift_between(self.prev[0], row_p), shift_between(self.prev[1], col_p)]
            self.prev = (row_p, col_p)
            self.recent.append(self.path.copy())
            correction = np.rint(np.mean(self.recent, axis=0) - self.path).astype(int)
            out = sk.zeros(H * W, f32, self.stream)
            pending = warp_shift.launch_async(self.warp, cur.as_buffer(), out, W, H, -int(correction[1]), -int(correction[0]))
            pending.sync_on(self.stream)
            self.bg, cur, _rate = bg_update(self.bg, cur, 0.05).sync_on(self.stream)
            yield out.to_numpy(self.stream).reshape(H, W)


def pan_with_shake(rng: np.random.Generator, n: int) -> Iterator[np.ndarray]:
    yy, xx = np.mgrid[0:H, 0:W]
    scene = (np.sin(xx / 2.5) * np.cos(yy / 3.5) + (((xx - 16) ** 2 + (yy - 10) ** 2) < 20)).astype(np.float32)
    for k in range(n):
        shake = rng.integers(-2, 3, 2)
        yield np.roll(scene, (int(shake[0]), k // 2 + int(shake[1])), axis=(0, 1)).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    smoother = PathSmoother(dev, stream)
    outs = list(smoother.stabilize(pan_with_shake(np.random.default_rng(19), 5)))
    motion = [float(np.abs(b - a).mean()) for a, b in zip(outs, outs[1:])]
    print("frame-to-frame change after smoothing:", [round(m, 3) for m in motion])
    print("background mean:", round(float(smoother.bg.to_numpy(stream).mean()), 4))


if __name__ == "__main__":
    main()
