"""A module-level registry's keys sorted and zipped with its values in insertion order: `sorted` puts
`"gain"` first while the registry lists `square` first, so the launch kept under `"square"` was prepared for
`gain` and `square` launching it is a mismatch."""

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


STAGES = {"square": square, "gain": gain}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = {
        name: kernel.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
        for name, kernel in zip(sorted(STAGES), STAGES.values())
    }
    x = sk.to_device(np.ones(N, np.float32), stream)
    out = sk.zeros(N, f32, stream)
    square.launch(prepared["square"], stream, x, out)  # expect: E0308
    print(out.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
