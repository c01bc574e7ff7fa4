# fresh-expect: E0133 at line 22
"""An ExitStack enters the unsafe context for a batch of unchecked fills."""
import contextlib

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, thread


@simt.kernel
def fill(dst: DisjointSlice[f32], value: f32) -> None:
    idx = thread.index_1d()
    if (o := dst.get_mut(idx)) is not None:
        o.set(value)


def fill_all(stream, bufs, value: float) -> None:
    with contextlib.ExitStack() as stack:
        stack.enter_context(simt.unsafe())
        for buf in bufs:
            fill.launch_unchecked(simt.LaunchConfig1D.for_len(128, block=64), stream, buf, value)  # BUG


stream = sk.Device.cpu().new_stream()
bufs = [sk.zeros(128, f32, stream) for _ in range(2)]
fill_all(stream, bufs, 2.0)
print(bufs[0].to_numpy(stream)[:4])
