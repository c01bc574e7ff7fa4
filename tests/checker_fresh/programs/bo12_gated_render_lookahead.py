# fresh-expect: clean
# fresh-note: the generator builds each block's expander launch only when the loop asks for it, so breaking on silence leaves no prefetched op behind.
"""Offline render of a decaying pluck through a downward expander, block by block, stopping at the first block
whose output falls below the silence gate.  The block ops are produced by a generator."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

BLOCK = 128
TILE = 32
GATE_DB = -60.0


@tile.kernel
def expander(z: Partition[f32], x: Tensor[f32], threshold: f32, ratio: f32) -> None:
    t = tile.load_like(x, z)
    loud = tile.maximum(t, -t) > threshold
    z.store(tile.where(loud, t, t * ratio))


def rms_db(y: np.ndarray) -> float:
    return float(20 * np.log10(np.sqrt(np.mean(np.square(y, dtype=np.float64))) + 1e-12))


class BlockRenderer:
    def __init__(self, stream: sk.Stream, threshold: float, ratio: float) -> None:
        self.stream = stream
        self.threshold = threshold
        self.ratio = ratio
        self.launched = 0

    def _launch(self, block: np.ndarray) -> sk.DeviceOp:
        self.launched += 1
        z = tile.zeros((len(block),), f32).partition((TILE,))
        return expander(z, tile.from_numpy(block), self.threshold, self.ratio)

    def pending_blocks(self, blocks: Iterable[np.ndarray]) -> Iterator[sk.DeviceOp]:
        """Builds each block's op when the consumer asks for it, so a consumer that stops early drops nothing."""
        for block in blocks:
            yield self._launch(block)


def pluck(seconds: float, rate: int) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (np.exp(-t * 40.0) * np.sin(2 * np.pi * 330 * t)).astype(np.float32)


def main() -> None:
    stream = sk.Device.default().new_stream()
    signal = pluck(0.5, 4000)
    blocks = [signal[k : k + BLOCK] for k in range(0, len(signal) - BLOCK + 1, BLOCK)]
    renderer = BlockRenderer(stream, threshold=0.05, ratio=0.25)
    rendered: list[np.ndarray] = []
    for op in renderer.pending_blocks(blocks):
        out, _x, _thr, _ratio = op.sync_on(stream)
        y = out.unpartition().to_numpy(stream)
        if rms_db(y) < GATE_DB:
            print(f"gate closed after {len(rendered)} blocks")
            break
        rendered.append(y)
    else:
        print("signal never fell below the gate")
    audio = np.concatenate(rendered)
    want = np.where(np.abs(signal[: audio.size]) > 0.05, signal[: audio.size], signal[: audio.size] * 0.25)
    np.testing.assert_allclose(audio, want, rtol=1e-6, atol=1e-7)
    print(f"rendered {audio.size} samples of {signal.size}, {renderer.launched} launches built")


if __name__ == "__main__":
    main()
