# fresh-expect: E0308 at line 59
# fresh-known-miss: cli,mypy a module-level plan cache keyed by (width, kernel.contract.block): a hand-written cache's result is a new value, so another kernel's prepared launch is not seen
"""Edge-preserving enhancement for a row of image scanlines: blur, then unsharp-mask.

Preparing a launch validates it against the device, so plans are cached in a module-level
dict and reused for every scanline of the same width.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

WIDTH = 640
ROWS = 3
_PLANS: dict = {}


@simt.kernel
@simt.launch_contract(block=128, requires=("len(src) >= n", "len(dst) >= n"))
def box_blur(src: Slice[f32], dst: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (o := dst.get_mut(idx)) is not None:
        lo = i - 1 if i > 0 else i
        hi = i + 1 if i + 1 < n else i
        o.set((src[lo] + src[i] + src[hi]) / 3.0)


@simt.kernel
@simt.launch_contract(block=128, requires=("len(src) >= n", "len(blurred) >= n", "len(dst) >= n"))
def unsharp(src: Slice[f32], blurred: Slice[f32], dst: DisjointSlice[f32], n: u32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < n and (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + 0.7 * (src[i] - blurred[i]))


def plan_key(kernel, width: int) -> tuple:
    return (width, kernel.contract.block)


def plan_for(kernel, width: int, dev: sk.Device):
    key = plan_key(kernel, width)
    if key not in _PLANS:
        _PLANS[key] = kernel.prepare(simt.LaunchConfig1D.for_len(width, block=128), dev)
    return _PLANS[key]


def enhance(row: np.ndarray, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    src = sk.to_device(row, stream)
    blurred = sk.zeros(WIDTH, f32, stream)
    sharp = sk.zeros(WIDTH, f32, stream)
    box_blur.launch(plan_for(box_blur, WIDTH, dev), stream, src, blurred, WIDTH)
    unsharp.launch(plan_for(unsharp, WIDTH, dev), stream, src, blurred, sharp, WIDTH)
    return sharp.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(4)
    image = (rng.random((ROWS, WIDTH)) > 0.5).astype(np.float32)
    out = np.stack([enhance(row, dev, stream) for row in image])
    print(f"contrast before {image.std():.3f}, after {out.std():.3f}; {len(_PLANS)} cached plans")


if __name__ == "__main__":
    main()
