"""A nested function runs a launching helper through `itertools.starmap` with the same buffer as its input and its
output; the nested function makes no safekernels call of its own.  The helper's launch reads and writes `b` (E0502,
inside the helper, where the runtime raises, and at the call that passes `b` twice).  The mypy plugin starts the
nested function's analysis at the `starmap` call, as it does for `map`."""

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
    scale.launch(prep, stream, a, out)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    b = sk.to_device(np.ones(64, np.float32), stream)

    def step() -> None:
        list(itertools.starmap(run, [(prep, stream, b, b)]))  # expect: E0502

    step()
    print(b.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
