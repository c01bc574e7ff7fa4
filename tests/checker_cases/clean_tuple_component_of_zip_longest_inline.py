"""The tuple `next` takes from `itertools.zip_longest(...)` of displays of known length holds each display's first
item, and the `fillvalue` only where a display is empty: `next(zip_longest([d], [], fillvalue=c))[0]` is `d`, not
the `c` a pending op writes, so the launch writing it runs (clean twin of
e0499_tuple_component_of_zip_longest_inline)."""

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(src[i] * 2.0)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(itertools.zip_longest([d], [], fillvalue=c))[0])
    scale.launch(prepared, stream, src, next(itertools.zip_longest([], [c], fillvalue=d))[0])
    p.sync_on(stream)
    print(d.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
