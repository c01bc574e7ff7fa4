"""`itertools.zip_longest(branches, outs, fillvalue=spare)` pads the shorter list with `spare`: a part is an item of
its list or `spare`, but never both parts at once (the tuples stop when the longer list runs out), so the launch
reading `branch` and writing `out` never gets `spare` twice, and `h` is no part at all: it runs (clean twin of
e0502_zip_longest_fill_written)."""

from itertools import zip_longest

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def residual_add(h: Slice[f32], branch: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(h[i] + branch[i])


def run_heads(h: sk.DeviceBuffer, spare: sk.DeviceBuffer, branches: list[sk.DeviceBuffer],
              outs: list[sk.DeviceBuffer], prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    for head, (branch, out) in enumerate(zip_longest(branches, outs, fillvalue=spare)):
        residual_add.launch(prepared, stream, h, branch, out)
        print(head, out.to_numpy(stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    h = sk.to_device(np.ones(64, np.float32), stream)
    spare = sk.zeros(64, f32, stream)
    branches = [sk.zeros(64, f32, stream) for _ in range(3)]
    outs = [sk.zeros(64, f32, stream) for _ in range(2)]
    prepared = residual_add.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    run_heads(h, spare, branches, outs, prepared, stream)


if __name__ == "__main__":
    main()
