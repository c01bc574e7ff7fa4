# fresh-expect: E0308 at line 66
# fresh-note: An image-sharpening pipeline memoises prepared launches in a plan cache keyed only by the pixel count, so the unsharp-mask stage is launched with the plan the cache prepared for the box-blur kernel.
"""Box blur + unsharp mask, ported from a CuPy RawKernel pipeline, with a small plan cache."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def box_blur(img: Slice[f32], out: DisjointSlice[f32], width: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (px := out.get_mut(idx)) is not None:
        col = i % width
        acc = img[i]
        if col > 0:
            acc = acc + img[i - 1]
        else:
            acc = acc + img[i]
        if col < width - 1:
            acc = acc + img[i + 1]
        else:
            acc = acc + img[i]
        px.set(acc / 3.0)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def unsharp(img: Slice[f32], blurred: Slice[f32], out: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (px := out.get_mut(idx)) is not None:
        px.set(img[i] + amount * (img[i] - blurred[i]))


class PlanCache:
    """Memoises prepared launches: prepare() re-validates against the device, which is not free."""

    def __init__(self, device: sk.Device) -> None:
        self.device = device
        self._plans: dict = {}
        self.misses = 0

    def plan_for(self, kernel, n: int):
        key = n
        if key not in self._plans:
            self.misses += 1
            config = simt.LaunchConfig1D.for_len(n, block=BLOCK)
            self._plans[key] = kernel.prepare(config, self.device)
        return self._plans[key]


def sharpen(cache: PlanCache, stream: sk.Stream, image: np.ndarray, amount: float) -> np.ndarray:
    height, width = image.shape
    n = height * width
    src = sk.to_device(image.ravel().astype(np.float32), stream)
    soft = sk.zeros(n, f32, stream)
    out = sk.zeros(n, f32, stream)
    box_blur.launch(cache.plan_for(box_blur, n), stream, src, soft, width)
    unsharp.launch(cache.plan_for(unsharp, n), stream, src, soft, out, amount)
    return out.to_numpy(stream).reshape(height, width)


def reference(image: np.ndarray, amount: float) -> np.ndarray:
    left = np.concatenate([image[:, :1], image[:, :-1]], axis=1)
    right = np.concatenate([image[:, 1:], image[:, -1:]], axis=1)
    soft = (image + left + right) / 3.0
    return image + amount * (image - soft)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    cache = PlanCache(dev)
    rng = np.random.default_rng(7)
    for shape in [(12, 20), (16, 16), (12, 20)]:
        image = rng.random(shape, dtype=np.float32)
        got = sharpen(cache, stream, image, 0.6)
        np.testing.assert_allclose(got, reference(image, 0.6), rtol=1e-5, atol=1e-5)
    print("plans prepared:", cache.misses)


if __name__ == "__main__":
    main()
