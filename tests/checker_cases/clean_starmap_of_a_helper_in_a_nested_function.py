"""The clean twin of `e0502_starmap_of_a_helper_in_a_nested_function`: the nested function runs the helper through
`itertools.starmap` with an input and a separate output."""

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(a: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(2.0 * a[i])


def run(prep: simt.PreparedLaunch, stream: sk.Stream, a: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
    scale.launch(prep, stream, a, out)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    b = sk.to_device(np.ones(64, np.float32), stream)
    c = sk.zeros(64, f32, stream)

    def step() -> None:
        list(itertools.starmap(run, [(prep, stream, b, c)]))

    step()
    print(b.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
