# fresh-expect: clean
"""Memoized scratch buffers keyed by (role, size): the low and high envelopes get distinct cached buffers."""
import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def window_minmax(x: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    j = min(i + 1, len(x) - 1)
    if (a := lo.get_mut(idx)) is not None:
        a.set(min(x[i], x[j]))
    idx2 = thread.index_1d()
    if (b := hi.get_mut(idx2)) is not None:
        b.set(max(x[i], x[j]))


_STREAM = sk.Device.cpu().new_stream()


@functools.cache
def scratch(role: str, n: int) -> sk.DeviceBuffer[f32]:
    return sk.zeros(n, f32, _STREAM)


def envelope(prep: simt.PreparedLaunch, x: sk.DeviceBuffer[f32], n: int) -> float:
    lo = scratch("lo", n)
    hi = scratch("hi", n)
    window_minmax.launch(prep, _STREAM, x, lo, hi)
    return float((hi.to_numpy(_STREAM) - lo.to_numpy(_STREAM)).mean())


def main() -> None:
    n = 200
    x = sk.to_device(np.sin(np.arange(n, dtype=np.float32)), _STREAM)
    prep = window_minmax.prepare(simt.LaunchConfig1D.for_len(n, block=128), sk.Device.cpu())
    for _ in range(3):
        print(envelope(prep, x, n))


if __name__ == "__main__":
    main()
