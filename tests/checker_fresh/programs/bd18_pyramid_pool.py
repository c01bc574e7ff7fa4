# fresh-expect: E0502 at line 54
# fresh-note: A 1-D Gaussian pyramid draws smoothing scratch buffers from a size-keyed pool whose acquire() falls back to returning the input buffer itself when no buffer of that length is pooled, so the second signal's smoothing launch reads and writes one buffer.
"""Gaussian pyramid of 1-D signals (smooth, then decimate by two), with a scratch-buffer pool."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def binomial(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        lo = max(i - 1, 0)
        hi = min(i + 1, n - 1)
        o.set(0.25 * src[lo] + 0.5 * src[i] + 0.25 * src[hi])


@simt.kernel
@simt.launch_contract(block=64)
def decimate(fine: Slice[f32], coarse: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := coarse.get_mut(idx)) is not None:
        o.set(fine[2 * i])


class ScratchPool:
    """Reuses scratch buffers by length; level sizes are powers of two in the common case."""

    def __init__(self, sizes, stream: sk.Stream) -> None:
        self.free = {n: [sk.zeros(n, f32, stream)] for n in sizes}

    def acquire(self, like: sk.DeviceBuffer) -> sk.DeviceBuffer:
        bucket = self.free.get(len(like), [])
        return bucket.pop() if bucket else like

    def release(self, buf: sk.DeviceBuffer) -> None:
        self.free.setdefault(len(buf), []).append(buf)


def pyramid(signal: np.ndarray, levels: int, pool: ScratchPool, device: sk.Device, stream: sk.Stream) -> list:
    level = sk.to_device(signal.astype(np.float32), stream)
    out = [signal.astype(np.float32)]
    for _ in range(levels):
        n = len(level)
        cfg = simt.LaunchConfig1D.for_len(n, block=64)
        tmp = pool.acquire(level)
        binomial.launch(binomial.prepare(cfg, device), stream, level, tmp)
        coarse = sk.zeros(n // 2, f32, stream)
        half = simt.LaunchConfig1D.for_len(n // 2, block=64)
        decimate.launch(decimate.prepare(half, device), stream, tmp, coarse)
        pool.release(tmp)
        level = coarse
        out.append(level.to_numpy(stream))
    return out


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    pool = ScratchPool([256, 128, 64], stream)
    rng = np.random.default_rng(9)
    for n in (256, 200):
        t = np.linspace(0.0, 1.0, n)
        signal = np.sin(2 * np.pi * 3 * t) + 0.3 * rng.normal(size=n)
        levels = pyramid(signal, 3, pool, dev, stream)
        noise = [float(np.std(np.diff(lv))) for lv in levels]
        assert noise[1] < noise[0], noise
        print(n, "->", [len(lv) for lv in levels], "roughness", [round(x, 3) for x in noise])


if __name__ == "__main__":
    main()
