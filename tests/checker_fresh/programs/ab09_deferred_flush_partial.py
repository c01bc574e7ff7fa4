# fresh-expect: E0505 at line 58
# fresh-known-miss: cli,mypy functools.partial(op.sync_on, stream) parked in a list and called later: the op's loans are taken as released when the partial is built
"""Camera preview pipeline: blur asynchronously, defer the syncs to the end of the frame, then apply gain."""
from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

PIXELS = 1024


@simt.kernel
@simt.launch_contract(block=128)
def box_blur(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        left = src[i - 1] if i > 0 else src[i]
        right = src[i + 1] if i + 1 < n else src[i]
        o.set((left + src[i] + right) / f32(3.0))


@tile.kernel
def apply_gain(out: Partition[f32], x: Tensor[f32], gain: f32) -> None:
    out.store(tile.load_like(x, out) * gain)


class FrameContext:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.pending: list[Callable[[], object]] = []

    def defer(self, op: sk.DeviceOp) -> None:
        self.pending.append(functools.partial(op.sync_on, self.stream))

    def flush(self) -> int:
        ran = len(self.pending)
        while self.pending:
            self.pending.pop(0)()
        return ran


def process_frame(raw: np.ndarray, dev: sk.Device, ctx: FrameContext) -> np.ndarray:
    src = sk.to_device(raw, ctx.stream)
    blurred = sk.zeros(PIXELS, f32, ctx.stream)
    prepared = box_blur.prepare(simt.LaunchConfig1D.for_len(PIXELS, block=128), dev)
    ctx.defer(box_blur.launch_async(prepared, src, blurred))
    out = tile.zeros((PIXELS,), f32).partition((256,))
    gained = apply_gain(out, blurred, 1.8)
    ctx.defer(gained)
    print("flushed", ctx.flush(), "ops")
    return src.to_numpy(ctx.stream)


def main() -> None:
    dev = sk.Device.default()
    ctx = FrameContext(dev.new_stream())
    raw = np.random.default_rng(4).random(PIXELS).astype(np.float32)
    print("frame mean:", round(float(process_frame(raw, dev, ctx).mean()), 4))


if __name__ == "__main__":
    main()
