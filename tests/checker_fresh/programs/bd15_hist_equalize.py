# fresh-expect: clean
# fresh-note: Histogram equalisation counts grey levels with an atomic SIMT kernel, hands the counts buffer to a tile cumsum kernel, and remaps the image with a tile gather, taking every moved buffer back from sync_on.
"""Global histogram equalisation of a low-contrast image (SIMT histogram, tile CDF and LUT)."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, Slice, thread
from safekernels.tile import Partition, Tensor

LEVELS = 64
H, W = 24, 32
TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def histogram(img: Slice[i32], counts: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(img):
        counts.fetch_add(img[i], i32(1))


@tile.kernel
def cumulative(cdf: Partition[i32], counts: Tensor[i32]) -> None:
    cdf.store(tile.cumsum(tile.load_like(counts, cdf)))


@tile.kernel
def remap(out: Partition[f32], img: Tensor[i32], cdf: Tensor[i32], cdf_min: i32, scale: f32) -> None:
    levels = tile.load_like(img, out)
    mapped = tile.gather(cdf, levels)
    out.store((mapped - cdf_min).astype(f32) * scale)


def equalize(image: np.ndarray, device: sk.Device, stream: sk.Stream) -> np.ndarray:
    n = image.size
    img = sk.to_device(image.ravel().astype(np.int32), stream)
    counts = sk.zeros(LEVELS, i32, stream)
    histogram.launch(histogram.prepare(simt.LaunchConfig1D.for_len(n, block=128), device), stream, img, counts)
    cdf_parts, counts = cumulative(tile.zeros((LEVELS,), i32).partition((LEVELS,)), counts).sync_on(stream)
    cdf = cdf_parts.unpartition()
    cdf_host = cdf.to_numpy(stream)
    cdf_min = int(cdf_host[np.nonzero(cdf_host)[0][0]])
    out = tile.zeros((n,), f32).partition((TILE,))
    scale = (LEVELS - 1) / (n - cdf_min)
    out, img, cdf, _m, _s = remap(out, img, cdf, cdf_min, scale).sync_on(stream)
    assert int(counts.to_numpy(stream).sum()) == n
    return out.unpartition().to_numpy(stream).reshape(image.shape)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(15)
    image = np.clip(rng.normal(30, 4, (H, W)), 0, LEVELS - 1).astype(np.int32)
    flat = equalize(image, dev, stream)
    hist_before = np.bincount(image.ravel(), minlength=LEVELS)
    ref_cdf = np.cumsum(hist_before)
    lo = ref_cdf[ref_cdf > 0][0]
    ref = (ref_cdf[image] - lo) / (image.size - lo) * (LEVELS - 1)
    np.testing.assert_allclose(flat, ref, rtol=1e-5, atol=1e-4)
    print(f"grey range {image.min()}..{image.max()} -> {flat.min():.1f}..{flat.max():.1f}")


if __name__ == "__main__":
    main()
