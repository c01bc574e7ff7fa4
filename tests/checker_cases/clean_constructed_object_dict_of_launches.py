"""A class's `__init__` stores a dict display of prepared launches keyed by stage name, each the launch its own
kernel prepared; a function that builds the object launches `smooth` with `plans.prepared["smooth"]`: clean."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 0.5)


@simt.kernel
@simt.launch_contract(block=64)
def sharpen(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 2.0)


class Plans:
    def __init__(self, dev: sk.Device) -> None:
        config = simt.LaunchConfig1D.for_len(N, block=64)
        self.prepared = {"smooth": smooth.prepare(config, dev), "sharpen": sharpen.prepare(config, dev)}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    plans = Plans(dev)
    src = sk.to_device(np.ones(N, np.float32), stream)
    dst = sk.zeros(N, f32, stream)
    smooth.launch(plans.prepared["smooth"], stream, src, dst)
    print(dst.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
