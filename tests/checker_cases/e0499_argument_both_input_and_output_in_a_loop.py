"""One buffer bound to two names (`came = out`) is passed as two outputs: the first iteration passes it as both
(E0499, what the runtime raises), and after the swap the next iteration would pass it as an input and an output
too (E0502): an argument that may be both an input and another output of one launch is reported with each code."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def relax(cost: Slice[f32], dist: Slice[f32], best: DisjointSlice[f32], came: DisjointSlice[f32]) -> None:
    first = thread.index_1d()
    i = first.get()
    if (o := best.get_mut(first)) is not None:
        o.set(dist[i] + cost[i])
    if (c := came.get_mut(thread.index_1d())) is not None:
        c.set(f32(1.0))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = relax.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    cost = sk.to_device(np.ones(N, np.float32), stream)
    dist = sk.zeros(N, f32, stream)
    out = sk.zeros(N, f32, stream)
    came = out
    for _ in range(3):
        relax.launch(prepared, stream, cost, dist, out, came)  # expect: E0499, E0502
        dist, out = out, dist


if __name__ == "__main__":
    main()
