# fresh-expect: clean
"""Batch denoising timed with a Timer context manager: per-frame ops are collected and run once, zipped."""

import time

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 256


@tile.kernel
def denoise(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 0.5)


class Timer:
    def __init__(self, label: str) -> None:
        self.label = label
        self.start = 0.0

    def __enter__(self) -> "Timer":
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        print(f"{self.label}: {time.perf_counter() - self.start:.4f}s")


def frames(count: int):
    for k in range(count):
        yield np.full(N, float(k), dtype=np.float32)


def denoise_batch(count: int, stream) -> list[np.ndarray]:
    ops = []
    for frame in frames(count):
        op = denoise(tile.zeros((N,), f32).partition((128,)), tile.from_numpy(frame))
        ops.append(op)
    with Timer("denoise"):
        results = sk.zip(*ops).sync_on(stream)
    return [out.unpartition().to_numpy(stream) for out, _ in results]


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print([r[:2] for r in denoise_batch(3, dev.new_stream())])
