"""`sk.as_buffer(counts)` of a numpy array wraps its memory: the buffer is what a launch borrows or moves, and the
array stays a numpy array the runtime never checks, so reading the array after a tile launch moved the buffer is
fine, while using the moved buffer again is E0382 (as the runtime's `UseAfterMoveError` says)."""

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def accumulate(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 2.0)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    counts = np.ones(N, np.float32)
    wrapped = sk.as_buffer(counts)
    out, _x = accumulate(tile.zeros((N,), f32).partition((32,)), wrapped).sync_on(stream)
    print(float(counts.sum()), out.unpartition().to_numpy(stream)[:2])
    print(wrapped.to_numpy(stream)[:2])  # expect: E0382


if __name__ == "__main__":
    main()
