# fresh-expect: E0308 at line 38
"""Prepared launches are kept in a registry built with dict(zip(names, ...)); the names list and the kernels list
are in different orders, so `scale` gets the launch prepared for `shift`."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


@simt.kernel
@simt.launch_contract(block=64)
def shift(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] + alpha)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    config = simt.LaunchConfig1D.for_len(64, block=64)
    names = ["scale", "shift"]
    registry = dict(zip(names, (shift.prepare(config, dev), scale.prepare(config, dev)), strict=True))
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    scale.launch(registry["scale"], stream, x, y, 2.0)  # BUG
    print(y.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
