# fresh-expect: E0133 at line 18
# fresh-known-false-alarm: cli,mypy false E0133 at 20, 21, 23, 24: the helper's other shared-array accesses outside `unsafe` (real ones; the runtime stops at the first, line 18)
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.device
def binomial_tap(src: Slice[f32], i: int, t: int) -> f32:
    """[1 2 1]/4 filter around src[2i]; the pair src[2i], src[2i+1] is staged in shared memory by each thread."""
    tile = simt.shared_array(f32, 2 * BLOCK)
    n = len(src)
    tile[2 * t] = src[2 * i] if 2 * i < n else 0.0
    tile[2 * t + 1] = src[2 * i + 1] if 2 * i + 1 < n else 0.0
    thread.sync_threads()
    left = tile[2 * t - 1] if t > 0 else (src[2 * i - 1] if i > 0 else tile[0])
    return 0.25 * left + 0.5 * tile[2 * t] + 0.25 * tile[2 * t + 1]


@simt.kernel
@simt.launch_contract(block=BLOCK)
def downsample(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    with simt.unsafe():  # the shared tile is indexed by thread, 2t and 2t+1 < 2 * BLOCK
        value = binomial_tap(src, i, t)
    if (out := dst.get_mut(idx)) is not None:
        out.set(value)


def build_pyramid(image: np.ndarray, dev: sk.Device, stream: sk.Stream, min_size: int = 32) -> list[np.ndarray]:
    """Downsample a flattened scanline image until it is smaller than `min_size` pixels."""
    level = sk.to_device(image.ravel().astype(np.float32), stream)
    levels = [image.ravel()]
    while len(levels[-1]) // 2 >= min_size:
        n_out = len(levels[-1]) // 2
        nxt = sk.zeros(n_out, f32, stream)
        prepared = downsample.prepare(simt.LaunchConfig1D.for_len(n_out, block=BLOCK), dev)
        downsample.launch(prepared, stream, level, nxt)
        levels.append(nxt.to_numpy(stream))
        level = nxt
    return levels


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    yy, xx = np.mgrid[0:32, 0:64]
    image = (np.sin(xx / 5.0) * np.cos(yy / 7.0) * 127 + 128).astype(np.float32)
    levels = build_pyramid(image, dev, stream)
    for depth, lvl in enumerate(levels):
        print(f"level {depth}: {lvl.size:5d} px, mean {lvl.mean():7.2f}, range [{lvl.min():6.1f}, {lvl.max():6.1f}]")


if __name__ == "__main__":
    main()
