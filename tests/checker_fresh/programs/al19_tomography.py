# fresh-expect: clean
# fresh-note: filtered back-projection of a parallel-beam phantom: a tile kernel ramp-filters each projection row of the flattened sinogram, and a 2-D SIMT kernel back-projects from the filtered tensor lent through as_buffer while the tensor stays owned.
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

ANGLES, DET, N = 18, 32, 32


@tile.kernel
def ramp_filter(out: Partition[f32], sino: Tensor[f32]) -> None:
    pos = tile.iota(DET, i32)
    base = tile.bid(0) * DET
    mid = tile.gather(sino, base + pos)
    left = tile.gather(sino, base + pos - 1, mask=pos > 0, other=0.0)
    right = tile.gather(sino, base + pos + 1, mask=pos < DET - 1, other=0.0)
    out.store(mid - 0.5 * (left + right))


@simt.kernel
@simt.launch_contract(block=(16, 4))
def backproject(filtered: Slice[f32], trig: Slice[f32], image: DisjointSlice[f32]) -> None:
    idx = thread.index_2d(N)
    if idx is not None:
        pix = idx.get()
        px = f32(pix % N) - f32(N / 2)
        py = f32(pix // N) - f32(N / 2)
        acc = f32(0.0)
        for a in range(ANGLES):
            t = px * trig[2 * a] + py * trig[2 * a + 1] + f32(DET / 2)
            k = i32(math.floor(t))
            if 0 <= k and k < DET - 1:
                frac = t - f32(k)
                acc += (f32(1.0) - frac) * filtered[a * DET + k] + frac * filtered[a * DET + k + 1]
        if (o := image.get_mut(idx)) is not None:
            o.set(acc * f32(3.14159 / ANGLES))


def phantom_sinogram() -> tuple[np.ndarray, np.ndarray]:
    thetas = np.linspace(0, np.pi, ANGLES, endpoint=False)
    det = np.arange(DET) - DET / 2 + 0.5
    sino = np.zeros((ANGLES, DET), np.float32)
    for cx, cy, r, rho in ((0.0, 0.0, 10.0, 1.0), (4.0, -3.0, 3.0, 0.8)):
        for a, th in enumerate(thetas):
            s = det - (cx * np.cos(th) + cy * np.sin(th))
            sino[a] += rho * 2 * np.sqrt(np.clip(r * r - s * s, 0, None))
    trig = np.stack([np.cos(thetas), np.sin(thetas)], axis=1).astype(np.float32).ravel()
    return sino.ravel(), trig


def reconstruct(stream: sk.Stream, dev: sk.Device) -> np.ndarray:
    sino_np, trig_np = phantom_sinogram()
    filtered = tile.zeros((ANGLES * DET,), f32).partition((DET,))
    filtered, _raw = ramp_filter(filtered, tile.from_numpy(sino_np)).sync_on(stream)
    filtered_t = filtered.unpartition()
    image = sk.zeros(N * N, f32, stream)
    prepared = backproject.prepare(simt.LaunchConfig2D.for_shape(N, N, block=(16, 4)), dev)
    backproject.launch(prepared, stream, filtered_t.as_buffer(), sk.to_device(trig_np, stream), image)
    assert filtered_t.to_numpy(stream).shape == (ANGLES * DET,)  # still ours after the SIMT read
    return image.to_numpy(stream).reshape(N, N)


def main() -> None:
    dev = sk.Device.cpu()
    img = reconstruct(dev.new_stream(), dev)
    centre, corner = img[N // 2, N // 2], img[2, 2]
    assert centre > corner, (centre, corner)
    print(f"reconstruction: centre {centre:.3f}, corner {corner:.3f}, range [{img.min():.3f}, {img.max():.3f}]")


if __name__ == "__main__":
    main()
