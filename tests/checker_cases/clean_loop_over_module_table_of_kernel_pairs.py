"""A `for` over a module-level table of (name, kernel) pairs launches each kernel with the launch that kernel
prepared, kept under its name."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def gain(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


@simt.kernel
@simt.launch_contract(block=32)
def square(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


STAGES = (("gain", gain), ("square", square))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    config = simt.LaunchConfig1D.for_len(N, block=32)
    prepared = {"gain": gain.prepare(config, dev), "square": square.prepare(config, dev)}
    x = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    for name, kernel in STAGES:
        kernel.launch(prepared[name], stream, x, out)
        x, out = out, x
    print(x.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
