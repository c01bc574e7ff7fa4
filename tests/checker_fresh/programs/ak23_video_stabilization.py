# fresh-expect: E0505 at line 73
# fresh-note: Projection-based video stabilization that queues the SIMT warp of a frame through the frame tensor's as_buffer() handle and then, to overlap work, moves the same tensor into the tile background-update launch while the warp is still pending.
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

H, W = 32, 64
RB = 16


@tile.kernel
def projections(rows: Partition[f32], cols: Partition[f32], frame: Tensor[f32], h: i32) -> None:
    block = frame.load((tile.bid(0),), (RB * W,))
    rows.store(tile.sum(tile.reshape(block, (RB, W)), axis=1))
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


def best_shift(ref: np.ndarray, cur: np.ndarray, radius: int = 4) -> int:
    scores = [np.abs(np.roll(cur, s) - ref)[radius:-radius].sum() for s in range(-radius, radius + 1)]
    return int(np.argmin(scores)) - radius


class Stabilizer:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.warp = warp_shift.prepare(simt.LaunchConfig1D.for_len(H * W, block=128), dev)
        self.bg = tile.zeros((H * W,), f32).partition((256,))
        self.ref: tuple[np.ndarray, np.ndarray] | None = None

    def _measure(self, frame: tile.Tensor) -> tuple[tile.Tensor, np.ndarray, np.ndarray]:
        rows = tile.zeros((H,), f32).partition((RB,))
        cols = tile.zeros((W,), f32).partition((W // 2,))
        rows, cols, frame, _h = projections(rows, cols, frame, H).sync_on(self.stream)
        return frame, rows.to_numpy(self.stream), cols.to_numpy(self.stream)

    def process(self, frames: list[np.ndarray]) -> list[np.ndarray]:
        out_frames = []
        for raw in frames:
            cur = tile.from_numpy(raw.ravel()).sync_on(self.stream)
            cur, row_p, col_p = self._measure(cur)
            if self.ref is None:
                self.ref = (row_p, col_p)
            dy = -best_shift(self.ref[0], row_p)
            dx = -best_shift(self.ref[1], col_p)
            out = sk.zeros(H * W, f32, self.stream)
            pending = warp_shift.launch_async(self.warp, cur.as_buffer(), out, W, H, dx, dy)
            self.bg, cur, _rate = bg_update(self.bg, cur, 0.1).sync_on(self.stream)
            pending.sync_on(self.stream)
            out_frames.append(out.to_numpy(self.stream).reshape(H, W))
        return out_frames


def shaky_clip(rng: np.random.Generator, n: int) -> list[np.ndarray]:
    yy, xx = np.mgrid[0:H, 0:W]
    scene = (np.sin(xx / 3.0) + np.cos(yy / 4.0) + (((xx - 30) ** 2 + (yy - 14) ** 2) < 30)).astype(np.float32)
    shifts = rng.integers(-3, 4, (n, 2))
    return [np.roll(scene, tuple(s), axis=(0, 1)).astype(np.float32) for s in shifts]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    clip = shaky_clip(np.random.default_rng(14), 4)
    stable = Stabilizer(dev, stream).process(clip)
    jitter_in = np.mean([np.abs(f - clip[0]).mean() for f in clip[1:]])
    jitter_out = np.mean([np.abs(f - stable[0]).mean() for f in stable[1:]])
    print(f"mean frame difference: {jitter_in:.3f} shaky -> {jitter_out:.3f} stabilized")


if __name__ == "__main__":
    main()
