# fresh-expect: E0382 at line 70
# fresh-note: Unsharp-mask sharpening: a nested SIMT box blur, then a tile combine in the sharpen() helper, which moves the original image buffer into its launch and returns only the result, so main's later img.to_numpy() reads a moved buffer.
"""Unsharp-mask sharpening of a grey image: SIMT box blur, then a tile-track combine stage."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

H, W = 32, 48
TILE = 128


@simt.kernel
@simt.launch_contract(block=128)
def box3(src: Slice[f32], dst: DisjointSlice[f32], width: u32, step: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        col = i % width
        row = i // width
        lo = i - step if (step == 1 and col > 0) or (step > 1 and row > 0) else i
        hi = i + step if (step == 1 and col + 1 < width) or (step > 1 and i + step < len(src)) else i
        o.set((src[lo] + src[i] + src[hi]) / 3.0)


@tile.kernel
def unsharp(out: Partition[f32], orig: Tensor[f32], soft: Tensor[f32], amount: f32) -> None:
    x = tile.load_like(orig, out)
    b = tile.load_like(soft, out)
    out.store(tile.minimum(tile.maximum(x + (x - b) * amount, 0.0), 1.0))


def sharpen(orig: sk.DeviceBuffer, soft: sk.DeviceBuffer, amount: float, stream: sk.Stream) -> np.ndarray:
    out = tile.zeros((H * W,), f32).partition((TILE,))
    out, orig, soft, _ = unsharp(out, orig, soft, amount).sync_on(stream)
    return out.unpartition().to_numpy(stream)


def reference(img: np.ndarray, amount: float) -> np.ndarray:
    pad = np.pad(img, 1, mode="edge")
    h = (pad[1:-1, :-2] + pad[1:-1, 1:-1] + pad[1:-1, 2:]) / 3.0
    padv = np.pad(h, ((1, 1), (0, 0)), mode="edge")
    soft = (padv[:-2] + padv[1:-1] + padv[2:]) / 3.0
    return np.clip(img + (img - soft) * amount, 0.0, 1.0)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    host = rng.random((H, W), dtype=np.float32)
    prep = box3.prepare(simt.LaunchConfig1D.for_len(H * W, block=128), dev)

    def blur(src: sk.DeviceBuffer) -> sk.DeviceBuffer:
        tmp = sk.zeros(H * W, f32, stream)
        soft = sk.zeros(H * W, f32, stream)
        box3.launch(prep, stream, src, tmp, W, 1)  # horizontal pass
        box3.launch(prep, stream, tmp, soft, W, W)  # vertical pass
        return soft

    img = sk.to_device(host.ravel(), stream)
    soft = blur(img)
    sharp = sharpen(img, soft, 1.5, stream)
    before = img.to_numpy(stream).reshape(H, W)
    np.testing.assert_allclose(sharp.reshape(H, W), reference(before, 1.5), rtol=1e-4, atol=1e-5)
    gain = float(np.abs(np.diff(sharp.reshape(H, W), axis=1)).mean() / np.abs(np.diff(before, axis=1)).mean())
    print(f"unsharp: {H}x{W} image, edge contrast x{gain:.2f}")


if __name__ == "__main__":
    main()
