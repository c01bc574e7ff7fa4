# fresh-expect: clean
"""Jacobi relaxation with two grids that swap roles every sweep."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def relax(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    left = src[max(i - 1, 0)]
    right = src[min(i + 1, n - 1)]
    if (o := dst.get_mut(idx)) is not None:
        o.set((left + right) * f32(0.5))


def sweep(prep, stream: sk.Stream, src: sk.DeviceBuffer[f32], dst: sk.DeviceBuffer[f32]):
    relax.launch(prep, stream, src, dst)
    return dst, src


def solve(dev: sk.Device, stream: sk.Stream, grid: sk.DeviceBuffer[f32], sweeps: int) -> sk.DeviceBuffer[f32]:
    prep = relax.prepare(simt.LaunchConfig1D.for_len(len(grid), block=64), dev)
    other = sk.zeros(len(grid), f32, stream)
    current = grid
    for _ in range(sweeps):
        current, other = sweep(prep, stream, current, other)
    return current


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    grid = sk.to_device(np.linspace(0, 1, 128, dtype=np.float32), stream)
    result = solve(dev, stream, grid, 5)
    print(result.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
