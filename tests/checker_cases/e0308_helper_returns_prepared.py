"""Prepared launches handed out by helpers of the module: `make_launches` returns a tuple of them (the caller
unpacks it in the wrong order), `prepared_for` and the method `Launcher.prepared` prepare the kernel they are
passed, and `add_launch_for` always prepares `vecadd`.  The result is branded for the kernel each `return`
prepares, so launching another kernel with it is refused (`BrandError` at run time)."""

from __future__ import annotations

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


def make_launches(dev: sk.Device) -> tuple[simt.PreparedLaunch[Any], simt.PreparedLaunch[Any]]:
    cfg = simt.LaunchConfig1D.for_len(32, block=32)
    return scale.prepare(cfg, dev), vecadd.prepare(cfg, dev)


def prepared_for(kernel: Any, dev: sk.Device) -> simt.PreparedLaunch[Any]:
    return kernel.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)


def add_launch_for(dev: sk.Device) -> simt.PreparedLaunch[Any]:
    return vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)


class Launcher:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.config = simt.LaunchConfig1D.for_len(32, block=32)

    def prepared(self, kernel: Any) -> simt.PreparedLaunch[Any]:
        return kernel.prepare(self.config, self.dev)


def main(flag: bool) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.zeros(32, f32, stream)
    out = sk.zeros(32, f32, stream)
    add_launch, scale_launch = make_launches(dev)
    vecadd.launch(add_launch, stream, a, a, out)  # expect: E0308
    for_add = prepared_for(vecadd, dev)
    scale.launch(for_add, stream, a, out)  # expect: E0308
    fixed = add_launch_for(dev)
    scale.launch(fixed, stream, a, out)  # expect: E0308
    launcher = Launcher(dev)
    by_method = launcher.prepared(vecadd)
    scale.launch(by_method, stream, a, out)  # expect: E0308
