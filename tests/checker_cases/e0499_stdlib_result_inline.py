"""A standard-library call the checker follows, written inline where an argument is expected, is the caller's
buffer as it is when bound to a name first: `next(itertools.chain.from_iterable([[c]]))` is an item of an inner
display (`c`), `copy.copy(Bufs(c, d, d)).a` and `dataclasses.replace(Bufs(d, d, d), a=c).a` are the field of an
object built right there (`c`), and so are `Bufs(c, d, d).a` itself, `copy.copy(h).b` of `h = Bufs(d, c, d)` and
`dict(item=c, other=d)["item"]`.  As a launch's output (or a helper's argument that the helper's pending op
writes) while a pending op writes `c`, each borrows `c` mutably twice."""

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


def flattened(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, next(itertools.chain.from_iterable([[c]])))  # expect: E0499
    p.sync_on(stream)


def copied(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, copy.copy(Bufs(c, d, d)).a)  # expect: E0499
    p.sync_on(stream)


def replaced(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, dataclasses.replace(Bufs(d, d, d), a=c).a)  # expect: E0499
    p.sync_on(stream)


def copied_name(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    h = Bufs(d, c, d)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, copy.copy(h).b)  # expect: E0499
    p.sync_on(stream)


def constructed(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, Bufs(c, d, d).a)  # expect: E0499
    p.sync_on(stream)


def keyed(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    d = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = scale.launch_async(prepared, src, c)
    scale.launch(prepared, stream, src, dict(item=c, other=d)["item"])  # expect: E0499
    p.sync_on(stream)


def through_helper(dev: sk.Device, stream: sk.Stream) -> None:
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    c = sk.zeros(64, f32, stream)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    p = pending_scale(prepared, src, next(itertools.chain.from_iterable([[c]])))
    scale.launch(prepared, stream, src, c)  # expect: E0499
    p.sync_on(stream)


if __name__ == "__main__":
    device = sk.Device.cpu()
    flattened(device, device.new_stream())
