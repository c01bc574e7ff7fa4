# fresh-expect: clean
# fresh-note: `phase_table` returns a `.shared()` op, which launches read without consuming, so the partial can pass the same phase table to every block.
"""A 4x linear-interpolation upsampler (tile gathers) composed with a host-side clipper into a block pipeline
with functools.partial and functools.reduce."""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import Partition, Tensor

L = 4  # upsampling factor
TILE = 64

Stage = Callable[[np.ndarray], np.ndarray]


@tile.kernel
def upsample(z: Partition[f32], x: Tensor[f32], phases: Tensor[f32]) -> None:
    j = tile.iota(TILE, i32) + tile.bid(0) * TILE
    base = j // L
    a = tile.gather(x, base)
    b = tile.gather(x, base + 1)  # past the end reads 0
    w = tile.gather(phases, j % L)
    z.store(a + (b - a) * w)


def phase_table(factor: int) -> sk.DeviceOp:
    return tile.from_numpy(np.arange(factor, dtype=np.float32) / np.float32(factor)).shared()  # read by every block


def upsample_block(stream: sk.Stream, block: np.ndarray, *, phases: sk.DeviceOp) -> np.ndarray:
    out = tile.zeros((len(block) * L,), f32).partition((TILE,))
    out, _x, _phases = upsample(out, tile.from_numpy(block), phases).sync_on(stream)
    return out.unpartition().to_numpy(stream)


def make_pipeline(stages: list[Stage]) -> Stage:
    return lambda block: functools.reduce(lambda acc, stage: stage(acc), stages, block)


def reference(block: np.ndarray) -> np.ndarray:
    padded = np.append(block, np.float32(0.0))
    j = np.arange(len(block) * L)
    a, b = padded[j // L], padded[j // L + 1]
    w = (j % L).astype(np.float32) / np.float32(L)
    return np.clip(a + (b - a) * w, -0.9, 0.9)


def main() -> None:
    stream = sk.Device.default().new_stream()
    pipeline = make_pipeline(
        [
            functools.partial(upsample_block, stream, phases=phase_table(L)),
            functools.partial(np.clip, a_min=-0.9, a_max=0.9),
        ]
    )
    t = np.arange(96 * 3) / 2000.0
    signal = np.sin(2 * np.pi * 50 * t).astype(np.float32)
    blocks = np.split(signal, 3)
    outs = [pipeline(b) for b in blocks]
    for got, blk in zip(outs, blocks):
        np.testing.assert_allclose(got, reference(blk), rtol=1e-6, atol=1e-6)
    total = sum(len(o) for o in outs)
    print(f"upsampler: {len(blocks)} blocks of {len(blocks[0])} -> {total} samples at {L}x, peak {max(np.abs(o).max() for o in outs):.2f}")


if __name__ == "__main__":
    main()
