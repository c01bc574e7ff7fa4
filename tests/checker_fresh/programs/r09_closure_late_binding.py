# fresh-expect: E0502 at line 35
"""An accumulation step is a closure over `acc` and `out`; after the first step the caller carries the result
forward with `acc = out`, and the closure, which reads its free variables late, now reads and writes one buffer."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 64
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    acc = sk.zeros(n, f32, stream)
    ones = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)

    def step() -> None:
        axpy.launch(prepared, stream, acc, ones, out)

    step()
    acc = out
    step()  # BUG
    print(out.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
