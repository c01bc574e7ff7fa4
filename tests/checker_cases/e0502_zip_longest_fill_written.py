"""`itertools.zip_longest(branches, outs, fillvalue=h)` pads the shorter list with `h` itself: once `outs` runs out
the loop's `out` is `h`, so a launch reading `h` and writing `out` reads and writes one buffer (the runtime raises
`AliasingError` at the marked line on the last head)."""

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


def run_heads(h: sk.DeviceBuffer, branches: list[sk.DeviceBuffer], outs: list[sk.DeviceBuffer],
              prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    for head, (branch, out) in enumerate(zip_longest(branches, outs, fillvalue=h)):
        residual_add.launch(prepared, stream, h, branch, out)  # expect: E0502
        print(head, out.to_numpy(stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    h = sk.to_device(np.ones(64, np.float32), stream)
    branches = [sk.zeros(64, f32, stream) for _ in range(3)]
    outs = [sk.zeros(64, f32, stream) for _ in range(2)]
    prepared = residual_add.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    try:
        run_heads(h, branches, outs, prepared, stream)
    except sk.AliasingError as err:
        print("AliasingError:", err)


if __name__ == "__main__":
    main()
