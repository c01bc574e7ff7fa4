"""A helper returns an object it builds with a class of the module (a dataclass, or a class whose `__init__`
stores its arguments), handing one buffer to two fields: the caller's `batch.features` and `batch.workspace` are
one buffer, so a launch reading one and writing the other conflicts (a helper with two `return`s gives the
fields of either)."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def standardise(x: Slice[f32], out: DisjointSlice[f32], mean: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] - mean)


@dataclass
class Batch:
    features: sk.DeviceBuffer
    workspace: sk.DeviceBuffer


class Pair:
    def __init__(self, src: sk.DeviceBuffer, dst: sk.DeviceBuffer) -> None:
        self.src = src
        self.dst = dst


def load_batch(rows: np.ndarray, stream: sk.Stream) -> Batch:
    feats = sk.to_device(rows, stream)
    return Batch(features=feats, workspace=feats)


def make_pair(rows: np.ndarray, stream: sk.Stream, inplace: bool) -> Pair:
    buf = sk.to_device(rows, stream)
    if inplace:
        return Pair(buf, buf)
    return Pair(buf, sk.zeros(rows.size, f32, stream))


def conditional_local(rows: np.ndarray, stream: sk.Stream, low_memory: bool) -> Batch:
    src = sk.to_device(rows, stream)
    tmp = src if low_memory else sk.zeros(rows.size, f32, stream)
    return Batch(features=src, workspace=tmp)


def dataclass_fields(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    batch = load_batch(np.ones(512, np.float32), stream)
    standardise.launch(prep, stream, batch.features, batch.workspace, 1.0)  # expect: E0502


def initializer_fields(prep: simt.PreparedLaunch, stream: sk.Stream, inplace: bool) -> None:
    pair = make_pair(np.ones(512, np.float32), stream, inplace)
    standardise.launch(prep, stream, pair.src, pair.dst, 1.0)  # expect: E0502


def maybe_aliased(prep: simt.PreparedLaunch, stream: sk.Stream, low_memory: bool) -> None:
    batch = conditional_local(np.ones(512, np.float32), stream, low_memory)
    standardise.launch(prep, stream, batch.features, batch.workspace, 1.0)  # expect: E0502


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    dataclass_fields(standardise.prepare(simt.LaunchConfig1D.for_len(512, block=128), dev), s)
