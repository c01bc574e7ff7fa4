"""A registry of prepared launches built with `dict(...)` rather than a display, each launch under its key as
`{"scale": ...}` keeps it: `dict(zip(names, (...)))` of a names list bound once, `dict(scale=..., shift=...)` and
`dict({"scale": ...}, shift=...)`.  With the keys in another order than the kernels, `registry["scale"]` is the
launch `shift` prepared (and `registry["shift"]` the one `scale` prepared): launching with it is a mismatch."""

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
    registry = dict(zip(names, (shift.prepare(config, dev), scale.prepare(config, dev)), strict=True))
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    scale.launch(registry["scale"], stream, x, y, 2.0)  # expect: E0308


def keywords(dev: sk.Device, stream: sk.Stream) -> None:
    config = simt.LaunchConfig1D.for_len(64, block=64)
    registry = dict(scale=shift.prepare(config, dev), shift=scale.prepare(config, dev))
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    scale.launch(registry["scale"], stream, x, y, 2.0)  # expect: E0308


def copied(dev: sk.Device, stream: sk.Stream) -> None:
    config = simt.LaunchConfig1D.for_len(64, block=64)
    registry = dict({"scale": shift.prepare(config, dev)}, shift=scale.prepare(config, dev))
    x = sk.to_device(np.ones(64, np.float32), stream)
    y = sk.zeros(64, f32, stream)
    shift.launch(registry["shift"], stream, x, y, 2.0)  # expect: E0308


if __name__ == "__main__":
    device = sk.Device.cpu()
    zipped(device, device.new_stream())
