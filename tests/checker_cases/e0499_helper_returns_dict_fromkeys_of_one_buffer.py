"""A helper returning `dict.fromkeys(names, sk.zeros(...))` gives a dict with one buffer under every key (the
value is evaluated once), so passing two of its entries as two outputs of a launch is two mutable borrows of one
buffer, as the runtime finds."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def split(x: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := low.get_mut(idx)) is not None:
        lo.set(x[i] * 0.5)
    if (hi := high.get_mut(thread.index_1d())) is not None:
        hi.set(x[i] * 2.0)


def alloc_outputs(stream: sk.Stream, names: tuple[str, ...]) -> dict[str, sk.DeviceBuffer]:
    return dict.fromkeys(names, sk.zeros(N, f32, stream))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = split.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    x = sk.to_device(np.ones(N, np.float32), stream)
    outs = alloc_outputs(stream, ("low", "high"))
    split.launch(prepared, stream, x, outs["low"], outs["high"])  # expect: E0499


if __name__ == "__main__":
    main()
