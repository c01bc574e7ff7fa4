# fresh-expect: E0502 at line 32
"""The host binds the prepared launch and stream once with functools.partial and then writes a residual update
back into the tensor it reads."""
import functools

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
    n = 192
    hidden = sk.to_device(np.ones(n, np.float32), stream)
    residual = sk.to_device(np.full(n, 0.5, np.float32), stream)
    tmp = sk.zeros(n, f32, stream)
    run = functools.partial(axpy.launch, axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev), stream)
    run(hidden, residual, tmp)
    run(tmp, residual, tmp)  # BUG
    print(tmp.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
