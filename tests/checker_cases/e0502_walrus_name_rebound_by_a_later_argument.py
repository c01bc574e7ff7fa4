"""An argument that binds a name (`(w := b)`) is the buffer it binds, though a later argument of the same call
binds the name again (`(w := a)`): passing `b` as the output too is E0502 (the runtime refuses the overlap)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(N, block=64), device)
    a = sk.to_device(np.ones(N, np.float32), stream)
    b = sk.to_device(np.ones(N, np.float32), stream)
    c = sk.zeros(N, f32, stream)
    vecadd.launch(prep, stream, (w := b), (w := a), b)  # expect: E0502
    print(w.to_numpy(stream)[:2], b.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
