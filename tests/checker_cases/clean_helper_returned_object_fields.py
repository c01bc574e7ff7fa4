"""The clean twin of `e0502_helper_returned_object_fields`: a helper's dataclass (or plain class) object whose
fields hold two different new buffers hands the caller two buffers, so a launch reading `batch.features` and
writing `batch.workspace` borrows two values (also when the workspace is one of two new buffers)."""

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
    return Batch(features=feats, workspace=sk.zeros(rows.size, f32, stream))


def make_pair(rows: np.ndarray, stream: sk.Stream, big: bool) -> Pair:
    buf = sk.to_device(rows, stream)
    if big:
        return Pair(buf, sk.zeros(rows.size, f32, stream))
    return Pair(buf, sk.zeros(rows.size, f32, stream))


def conditional_local(rows: np.ndarray, stream: sk.Stream, small: bool) -> Batch:
    src = sk.to_device(rows, stream)
    tmp = sk.zeros(16, f32, stream) if small else sk.zeros(rows.size, f32, stream)
    return Batch(features=src, workspace=tmp)


def dataclass_fields(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    batch = load_batch(np.ones(512, np.float32), stream)
    standardise.launch(prep, stream, batch.features, batch.workspace, 1.0)
    print(batch.workspace.to_numpy(stream)[:3])


def initializer_fields(prep: simt.PreparedLaunch, stream: sk.Stream, big: bool) -> None:
    pair = make_pair(np.ones(512, np.float32), stream, big)
    standardise.launch(prep, stream, pair.src, pair.dst, 1.0)
    print(pair.dst.to_numpy(stream)[:3])


def distinct_choice(prep: simt.PreparedLaunch, stream: sk.Stream) -> None:
    batch = conditional_local(np.ones(512, np.float32), stream, False)
    standardise.launch(prep, stream, batch.features, batch.workspace, 1.0)
    print(batch.workspace.to_numpy(stream)[:3])


if __name__ == "__main__":
    dev = sk.Device.cpu()
    s = dev.new_stream()
    p = standardise.prepare(simt.LaunchConfig1D.for_len(512, block=128), dev)
    dataclass_fields(p, s)
    initializer_fields(p, s, True)
    distinct_choice(p, s)
