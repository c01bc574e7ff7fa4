"""Prepared launches handed out by helpers of the module, each launched with the kernel it was prepared for: the
tuple `make_launches` returns unpacked in its own order, `prepared_for` and the method `Launcher.prepared` given
the kernel that is then launched, and a helper that rebinds its kernel parameter (its result is not known to be
the argument's)."""

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


def prepared_for_scale_when(flag: bool, kernel: Any, dev: sk.Device) -> simt.PreparedLaunch[Any]:
    if flag:
        kernel = scale
    return kernel.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)


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
    scale_launch, add_launch = make_launches(dev)
    vecadd.launch(add_launch, stream, a, a, out)
    scale.launch(scale_launch, stream, a, out)
    for_scale = prepared_for(scale, dev)
    scale.launch(for_scale, stream, a, out)
    chosen = prepared_for_scale_when(True, vecadd, dev)
    scale.launch(chosen, stream, a, out)
    launcher = Launcher(dev)
    by_method = launcher.prepared(scale)
    scale.launch(by_method, stream, a, out)
