# fresh-expect: E0308 at line 55
# fresh-known-miss: cli,mypy the kernel held in an attribute (`self.kernel.launch(self.prepared, ...)`) is not resolved, so a `copy.copy` clone whose `kernel` is reassigned while keeping `prepared` is not checked against the brand
"""A Runner caches the prepared launch of its kernel; `with_kernel` clones the runner with copy.copy and swaps
the kernel, but the clone keeps the old prepared launch."""
import copy

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


@simt.kernel
@simt.launch_contract(block=64)
def shift(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] + alpha)


class Runner:
    def __init__(self, kernel, n: int, dev) -> None:
        self.kernel = kernel
        self.prepared = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)

    def with_kernel(self, kernel) -> "Runner":
        clone = copy.copy(self)
        clone.kernel = kernel
        return clone

    def __call__(self, stream, x, y, alpha: float) -> None:
        self.kernel.launch(self.prepared, stream, x, y, alpha)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    run_scale = Runner(scale, 64, dev)
    run_scale(stream, x, y, 2.0)
    run_shift = run_scale.with_kernel(shift)
    run_shift(stream, x, y, 1.0)  # BUG
    print(y.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
