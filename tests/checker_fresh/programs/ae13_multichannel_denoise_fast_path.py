# fresh-expect: W0003 at line 43
# idiom: lazy tile op chain (launch .first().unpartition()) built up front; an early-return fast path drops it unrun
"""Soft-threshold denoising of a multichannel recording with a tile kernel.

Each channel is shrunk towards zero by its own threshold: values within +-lam become 0 and the rest
move lam closer to zero.  The device work for a channel is described lazily as one chain (launch,
take the output, unpartition it) and run once at the end.  Channels configured with a zero
threshold are passed through untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 256


@tile.kernel
def shrink(out: Partition[f32], x: Tensor[f32], lam: f32) -> None:
    t = tile.load_like(x, out)
    mag = tile.maximum(tile.where(t > 0.0, t, -t) - lam, 0.0)
    out.store(tile.where(t > 0.0, mag, -mag))


@dataclass
class Channel:
    name: str
    samples: np.ndarray
    lam: float


def denoise_channel(ch: Channel, stream: sk.Stream) -> np.ndarray:
    n = len(ch.samples)
    x = tile.from_numpy(ch.samples.astype(np.float32))
    out = tile.zeros((n,), f32).partition((TILE,))
    cleaned = shrink(out, x, ch.lam).first().unpartition()
    if ch.lam <= 0.0:
        return ch.samples.astype(np.float32)  # nothing to shrink
    return cleaned.sync_on(stream).to_numpy(stream)


def denoise_all(channels: list[Channel], device: sk.Device) -> dict[str, np.ndarray]:
    stream = device.new_stream()
    return {ch.name: denoise_channel(ch, stream) for ch in channels}


def main() -> None:
    rng = np.random.default_rng(9)
    t = np.linspace(0.0, 1.0, 1500, dtype=np.float32)
    clean = np.sin(2 * np.pi * 5 * t)
    channels = [
        Channel("left", clean + 0.05 * rng.standard_normal(t.size), lam=0.1),
        Channel("right", clean + 0.05 * rng.standard_normal(t.size), lam=0.1),
        Channel("reference", clean, lam=0.0),
    ]
    result = denoise_all(channels, sk.Device.cpu())
    for name, data in result.items():
        print(f"{name:>9}: rms {float(np.sqrt(np.mean(data**2))):.4f}")


if __name__ == "__main__":
    main()
