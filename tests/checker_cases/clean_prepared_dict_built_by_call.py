"""A registry of prepared launches built with `dict(...)` rather than a display, each launch under its key as
`{"scale": ...}` keeps it: `dict(zip(names, (...)))` of a names list bound once, `dict(scale=..., shift=...)` and
`dict({"scale": ...}, shift=...)`, the keys in the kernels' order: each launch is the one its kernel prepared."""

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


def zipped(dev: sk.Device, stream: sk.Stream) -> None:
    config = simt.LaunchConfig1D.for_len(64, block=64)
    names = ["scale", "shift"]
    registry = dict(zip(names, (scale.prepare(config, dev), shift.prepare(config, dev)), strict=True))
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    scale.launch(registry["scale"], stream, x, y, 2.0)


def keywords(dev: sk.Device, stream: sk.Stream) -> None:
    config = simt.LaunchConfig1D.for_len(64, block=64)
    registry = dict(scale=scale.prepare(config, dev), shift=shift.prepare(config, dev))
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    scale.launch(registry["scale"], stream, x, y, 2.0)


def copied(dev: sk.Device, stream: sk.Stream) -> None:
    config = simt.LaunchConfig1D.for_len(64, block=64)
    registry = dict({"scale": scale.prepare(config, dev)}, shift=shift.prepare(config, dev))
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    shift.launch(registry["shift"], stream, x, y, 2.0)


if __name__ == "__main__":
    device = sk.Device.cpu()
    zipped(device, device.new_stream())
    keywords(device, device.new_stream())
    copied(device, device.new_stream())
