"""A module-level registry whose insertion order is its sorted order, its sorted keys zipped with its values:
each key's launch was prepared by that key's kernel."""

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


STAGES = {"gain": gain, "square": square}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = {
        name: kernel.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
        for name, kernel in zip(sorted(STAGES), STAGES.values())
    }
    x = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    square.launch(prepared["square"], stream, x, out)
    print(out.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
