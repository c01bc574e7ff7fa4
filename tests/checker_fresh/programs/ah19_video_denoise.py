# fresh-expect: E0382 at line 42
# fresh-note: a video denoiser binds the dark-frame tensor into a functools.partial once, and every call passes that same handle to a tile launch that moves it, so the second frame's launch uses the moved dark frame.
"""Fixed-pattern noise removal for a stream of video frames, on the tile track.

A dark frame (the sensor's response with the shutter closed) is uploaded once and subtracted, scaled by
the exposure ratio, from every frame read off a generator.  The per-frame helper is specialised with
`functools.partial` so the frame loop only passes the frame.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

H, W = 48, 64
TILE = (16, 32)


@tile.kernel
def subtract_dark(out: Partition[f32], frame: Tensor[f32], dark: Tensor[f32], ratio: f32) -> None:
    clean = tile.load_like(frame, out) - ratio * tile.load_like(dark, out)
    out.store(tile.maximum(clean, 0.0))


def read_frames(count: int, dark: np.ndarray, seed: int = 0) -> Iterator[tuple[int, np.ndarray]]:
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W]
    for k in range(count):
        scene = 100.0 + 60.0 * np.sin((xx + 3 * k) / 9.0) * np.cos(yy / 7.0)
        yield k, (scene + dark + rng.normal(0.0, 2.0, (H, W))).astype(np.float32)


def denoise_frame(frame: np.ndarray, *, dark: tile.Tensor, ratio: float, stream: sk.Stream) -> np.ndarray:
    out, _frame, _dark, _ = subtract_dark(
        tile.zeros((H, W), f32).partition(TILE), tile.from_numpy(frame), dark, ratio
    ).sync_on(stream)
    return out.unpartition().to_numpy(stream)


def psnr(a: np.ndarray, b: np.ndarray, peak: float = 255.0) -> float:
    mse = float(np.mean((a - b) ** 2))
    return 10.0 * np.log10(peak * peak / max(mse, 1e-12))


def main() -> None:
    stream = sk.Device.default().new_stream()
    rng = np.random.default_rng(77)
    dark_host = (20.0 + 8.0 * rng.random((H, W))).astype(np.float32)
    dark = tile.from_numpy(dark_host).sync_on(stream)
    clean = functools.partial(denoise_frame, dark=dark, ratio=1.0, stream=stream)
    scores = []
    for k, frame in read_frames(5, dark_host):
        cleaned = clean(frame)
        np.testing.assert_allclose(cleaned, np.maximum(frame - dark_host, 0), rtol=1e-6, atol=1e-4)
        scores.append((k, psnr(frame, cleaned)))
    for k, score in scores:
        print(f"frame {k}: dark offset removed, PSNR vs raw {score:.2f} dB")


if __name__ == "__main__":
    main()
