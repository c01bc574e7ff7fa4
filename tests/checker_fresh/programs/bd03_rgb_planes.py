# fresh-expect: E0499 at line 59
# fresh-note: A colour-conversion step writes luma and chroma into two planes of one pitched allocation, but the frame class steps its planes by the unpadded plane size, so the two output views overlap in the launch.
"""Interleaved RGB -> planar (luma, chroma magnitude) with row-pitched planes, as a CuPy port."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

PITCH_ALIGN = 8


@simt.kernel
@simt.launch_contract(block=128)
def split_planes(rgb: Slice[f32], luma: DisjointSlice[f32], chroma: DisjointSlice[f32], width: u32, pitch: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    row = i // pitch
    col = i % pitch
    y = f32(0.0)
    c = f32(0.0)
    if col < width and 3 * (row * width + col) + 2 < len(rgb):
        base = 3 * (row * width + col)
        r, g, b = rgb[base], rgb[base + 1], rgb[base + 2]
        y = 0.299 * r + 0.587 * g + 0.114 * b
        c = abs(b - y) + abs(r - y)
    if (out := luma.get_mut(idx)) is not None:
        out.set(y)
    j = thread.index_1d()
    if (out2 := chroma.get_mut(j)) is not None:
        out2.set(c)


class PlanarFrame:
    """Planes stored back to back in one allocation; rows padded to a multiple of PITCH_ALIGN."""

    def __init__(self, height: int, width: int, planes: int, stream: sk.Stream) -> None:
        self.height, self.width = height, width
        self.pitch = -(-width // PITCH_ALIGN) * PITCH_ALIGN
        self.plane_size = height * width
        self.buf = sk.zeros(planes * height * self.pitch, f32, stream)

    def plane(self, c: int):
        start = c * self.plane_size
        return self.buf[start : start + self.height * self.pitch]

    def host_plane(self, c: int, stream: sk.Stream) -> np.ndarray:
        flat = self.plane(c).to_numpy(stream)
        return flat.reshape(self.height, self.pitch)[:, : self.width]


def convert(image: np.ndarray, device: sk.Device, stream: sk.Stream) -> PlanarFrame:
    height, width, _ = image.shape
    frame = PlanarFrame(height, width, 2, stream)
    rgb = sk.to_device(image.reshape(-1).astype(np.float32), stream)
    plan = split_planes.prepare(simt.LaunchConfig1D.for_len(height * frame.pitch, block=128), device)
    luma, chroma = frame.plane(0), frame.plane(1)
    split_planes.launch(plan, stream, rgb, luma, chroma, width, frame.pitch)
    return frame


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    image = np.random.default_rng(5).random((10, 30, 3), dtype=np.float32)
    frame = convert(image, dev, stream)
    want = image @ np.array([0.299, 0.587, 0.114], np.float32)
    np.testing.assert_allclose(frame.host_plane(0, stream), want, rtol=1e-5)
    print("luma mean", float(frame.host_plane(0, stream).mean()), "chroma mean", float(frame.host_plane(1, stream).mean()))


if __name__ == "__main__":
    main()
