# fresh-expect: E0499 at line 62
# fresh-note: a color grader allocates its per-channel outputs with dict.fromkeys(channels, sk.zeros(...)), so the second queued launch_async writes the one buffer the first pending op is still writing.
"""Per-channel tone curves for an RGB photo.

Each channel gets its own gain and gamma.  The three channel launches are queued with `launch_async` so they
can overlap, then synchronized together; the graded image is compared with numpy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CHANNELS = ("red", "green", "blue")
BLOCK = 256


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(plane) >= len(graded)",))
def tone_curve(plane: Slice[f32], graded: DisjointSlice[f32], gain: f32, gamma: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := graded.get_mut(idx)) is not None:
        v = plane[i] * gain
        v = min(max(v, f32(0.0)), f32(1.0))
        out.set(v ** gamma)


@dataclass(frozen=True)
class Curve:
    gain: float
    gamma: float


LOOKS: dict[str, dict[str, Curve]] = {
    "warm": {"red": Curve(1.10, 0.90), "green": Curve(1.00, 1.00), "blue": Curve(0.85, 1.10)},
    "cool": {"red": Curve(0.90, 1.05), "green": Curve(1.00, 1.00), "blue": Curve(1.15, 0.95)},
}


class Grader:
    def __init__(self, height: int, width: int, device: sk.Device, stream: sk.Stream) -> None:
        self.shape = (height, width)
        self.stream = stream
        pixels = height * width
        self.prepared = tone_curve.prepare(simt.LaunchConfig1D.for_len(pixels, block=BLOCK), device)
        self.outputs = dict.fromkeys(CHANNELS, sk.zeros(pixels, f32, stream))

    def upload(self, image: np.ndarray) -> dict[str, sk.DeviceBuffer]:
        return {ch: sk.to_device(np.ascontiguousarray(image[..., k]).ravel(), self.stream)
                for k, ch in enumerate(CHANNELS)}

    def submit(self, planes: dict[str, sk.DeviceBuffer], look: str) -> list[sk.DeviceOp]:
        curves = LOOKS[look]
        return [
            tone_curve.launch_async(self.prepared, planes[ch], self.outputs[ch], curves[ch].gain, curves[ch].gamma)
            for ch in CHANNELS
        ]

    def collect(self) -> np.ndarray:
        planes = [self.outputs[ch].to_numpy(self.stream).reshape(self.shape) for ch in CHANNELS]
        return np.stack(planes, axis=-1)


def numpy_grade(image: np.ndarray, look: str) -> np.ndarray:
    out = np.empty_like(image)
    for k, ch in enumerate(CHANNELS):
        c = LOOKS[look][ch]
        out[..., k] = np.clip(image[..., k] * np.float32(c.gain), 0, 1) ** np.float32(c.gamma)
    return out


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(7)
    image = rng.random((48, 64, 3), dtype=np.float32)
    grader = Grader(48, 64, device, stream)
    planes = grader.upload(image)
    for op in grader.submit(planes, "warm"):
        op.sync_on(stream)
    graded = grader.collect()
    np.testing.assert_allclose(graded, numpy_grade(image, "warm"), rtol=1e-5, atol=1e-6)
    print(f"graded a {image.shape[1]}x{image.shape[0]} image, mean {graded.mean(axis=(0, 1)).round(3)}")


if __name__ == "__main__":
    main()
