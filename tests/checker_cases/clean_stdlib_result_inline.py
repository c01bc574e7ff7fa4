"""Standard-library calls the checker follows, written inline as launch arguments, over buffers no pending op
writes: `next(itertools.chain.from_iterable([[d], [d]]))`, `copy.copy(Bufs(d, c, c)).a`,
`dataclasses.replace(Bufs(c, c, c), a=d).a`, `Bufs(d, c, c).a`, `copy.copy(h).b` of `h = Bufs(c, d, c)`,
`dict(item=d, other=c)["item"]` and a helper's op over an item of a nested display of `d` are `d`, never the `c`
the pending op writes."""

import copy
import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any

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


@dataclass
class Bufs:
    a: Any
    b: Any
    c: Any


def pending_scale(prepared: Any, src: Any, out: Any) -> Any:
    return scale.launch_async(prepared, src, out)


def inline(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(itertools.chain.from_iterable([[d], [d]])))
    scale.launch(prepared, stream, src, copy.copy(Bufs(d, c, c)).a)
    scale.launch(prepared, stream, src, dataclasses.replace(Bufs(c, c, c), a=d).a)
    scale.launch(prepared, stream, src, Bufs(d, c, c).a)
    scale.launch(prepared, stream, src, dict(item=d, other=c)["item"])
    h = Bufs(c, d, c)
    scale.launch(prepared, stream, src, copy.copy(h).b)
    p.sync_on(stream)
    q = pending_scale(prepared, src, next(itertools.chain.from_iterable([[d]])))
    scale.launch(prepared, stream, src, c)
    q.sync_on(stream)
    print(c.to_numpy(stream)[:2], d.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    inline(device, device.new_stream())
