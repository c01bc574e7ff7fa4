"""A class's `__init__` stores a dict display of prepared launches keyed by stage name, with the two kernels
swapped; a function that builds the object launches `smooth` with `plans.prepared["smooth"]`, which `sharpen`
prepared (E0308, as the runtime's `BrandError` says): the items of a dict display an initializer stores are the
constructed object's items under those keys."""

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
        self.prepared = {"smooth": sharpen.prepare(config, dev), "sharpen": smooth.prepare(config, dev)}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    plans = Plans(dev)
    src = sk.to_device(np.ones(N, np.float32), stream)
    dst = sk.zeros(N, f32, stream)
    smooth.launch(plans.prepared["smooth"], stream, src, dst)  # expect: E0308
    print(dst.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
