# fresh-expect: clean
"""A profiling script launches a batch of unchecked kernels from a comprehension in one unsafe block."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def offset(x: Slice[f32], out: DisjointSlice[f32], delta: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] + delta)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    x = sk.to_device(np.arange(n, dtype=np.float32), stream)
    outs = [sk.zeros(n, f32, stream) for _ in range(3)]
    config = simt.LaunchConfig1D.for_len(n, block=128)
    with simt.unsafe():
        [offset.launch_unchecked(config, stream, x, out, float(k)) for k, out in enumerate(outs)]
    for out in outs:
        print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
