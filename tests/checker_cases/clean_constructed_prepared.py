"""The clean twin of `e0308_constructed_prepared`: each kernel is launched with the prepared launch made for it,
whether a dataclass field, an attribute a constructor stores, or one a constructor prepares itself."""

from dataclasses import dataclass
from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@simt.kernel
@simt.launch_contract(block=32)
def scale(a: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] * 2.0)


@dataclass
class Launches:
    add: Any
    double: Any


class Runner:
    def __init__(self, prepared: Any, stream: sk.Stream) -> None:
        self.prepared = prepared
        self.stream = stream


class OwnLaunch:
    def __init__(self, dev: sk.Device) -> None:
        self.prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(32, block=32)
    a, c = sk.zeros(32, f32, stream), sk.zeros(32, f32, stream)
    launches = Launches(add=vecadd.prepare(cfg, dev), double=scale.prepare(cfg, dev))
    scale.launch(launches.double, stream, a, c)
    runner = Runner(scale.prepare(cfg, dev), stream)
    scale.launch(runner.prepared, runner.stream, a, c)
    own = OwnLaunch(dev)
    vecadd.launch(own.prepared, stream, a, a, c)
