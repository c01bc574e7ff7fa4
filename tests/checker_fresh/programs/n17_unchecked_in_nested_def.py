# fresh-expect: E0133 at line 23
"""A helper defined inside the unsafe block does not inherit it: its launch_unchecked is outside any block."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def run(stream, a, b, c, n: int) -> None:
    config = simt.LaunchConfig1D.for_len(n, block=64)
    with simt.unsafe():
        def go() -> None:
            vecadd.launch_unchecked(config, stream, a, b, c)  # BUG E0133

        go()


stream = sk.Device.cpu().new_stream()
run(stream, sk.to_device(np.ones(64, np.float32), stream), sk.to_device(np.ones(64, np.float32), stream),
    sk.zeros(64, f32, stream), 64)
