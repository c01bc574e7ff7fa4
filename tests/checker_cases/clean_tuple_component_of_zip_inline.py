"""The clean twin of `e0499_tuple_component_of_zip_inline`: the components picked are the other display's items
(`next(zip([d], [c]))[0]` is `d`, `next(itertools.pairwise([c, d]))[1]` is `d`), not the buffer the pending op
writes, so each launch runs."""

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


def zipped(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(zip([d], [c], strict=True))[0])
    p.sync_on(stream)


def paired(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(itertools.pairwise([c, d]))[1])
    p.sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    zipped(dev, stream)
    paired(dev, stream)
