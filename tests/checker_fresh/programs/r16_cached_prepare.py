# fresh-expect: E0308 at line 47
"""Prepared launches are memoised per length with functools.cache; the cache is keyed only by length, so the
`scale` step reuses the launch prepared for `axpy`."""
import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DEV = sk.Device.cpu()


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


@functools.cache
def launch_for(n: int):
    return axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), DEV)


def main() -> None:
    stream = DEV.new_stream()
    n = 128
    a = sk.to_device(np.ones(n, np.float32), stream)
    b = sk.to_device(np.ones(n, np.float32), stream)
    c = sk.zeros(n, f32, stream)
    d = sk.zeros(n, f32, stream)
    axpy.launch(launch_for(n), stream, a, b, c)
    scale.launch(launch_for(n), stream, c, d, 0.5)  # BUG
    print(d.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
