# fresh-expect: E0505 at line 39
"""Intensity histogram of an image queued asynchronously, then normalised into a CDF by a tile kernel."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BINS = 64


@simt.kernel
@simt.launch_contract(block=256)
def bin_pixels(pixels: Slice[i32], counts: AtomicSlice[f32]) -> None:
    i = thread.index_1d().get()
    if i < len(pixels):
        counts.fetch_add(pixels[i] % 64, f32(1.0))


@tile.kernel
def normalise(out: Partition[f32], counts: Tensor[f32], inv_total: f32) -> None:
    out.store(tile.load_like(counts, out) * inv_total)


class HistogramEqualiser:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.stream = dev.new_stream()

    def __call__(self, image: np.ndarray) -> np.ndarray:
        pixels = sk.to_device(image.ravel().astype(np.int32), self.stream)
        counts = sk.zeros(BINS, f32, self.stream)
        prep = bin_pixels.prepare(simt.LaunchConfig1D.for_len(image.size, block=256), self.dev)
        pending = bin_pixels.launch_async(prep, pixels, counts)
        out = tile.zeros((BINS,), f32).partition((BINS,))
        op = normalise(out, counts, 1.0 / image.size)
        pending.sync_on(self.stream)
        out, counts, _ = op.sync_on(self.stream)
        return out.unpartition().to_numpy(self.stream)


if __name__ == "__main__":
    eq = HistogramEqualiser(sk.Device.cpu())
    print(eq(np.arange(1024).reshape(32, 32))[:4])
