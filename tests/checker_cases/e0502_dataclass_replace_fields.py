"""A dataclass instance re-derived with `dataclasses.replace` keeps the fields it does not replace, and one copied
with `copy.copy` keeps all of them: `low.dst` of `low = dataclasses.replace(step, dst=step.src)` is `step.src`, as
`low.src` is, and `clone.dst` of `clone = copy.copy(step)` is `step.dst`.  Launching one buffer as the input and
the output is an aliasing launch."""

import copy
import dataclasses

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@dataclasses.dataclass(frozen=True)
class StepBuffers:
    src: sk.DeviceBuffer
    bias: sk.DeviceBuffer
    dst: sk.DeviceBuffer


def replaced(dev: sk.Device, stream: sk.Stream) -> None:
    step = StepBuffers(
        src=sk.to_device(np.arange(64, dtype=np.float32), stream),
        bias=sk.to_device(np.ones(64, np.float32), stream),
        dst=sk.zeros(64, f32, stream),
    )
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    low = dataclasses.replace(step, dst=step.src)
    axpy.launch(prepared, stream, low.src, low.bias, low.dst)  # expect: E0502


def copied(dev: sk.Device, stream: sk.Stream) -> None:
    step = StepBuffers(
        src=sk.to_device(np.arange(64, dtype=np.float32), stream),
        bias=sk.to_device(np.ones(64, np.float32), stream),
        dst=sk.zeros(64, f32, stream),
    )
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    clone = copy.copy(step)
    axpy.launch(prepared, stream, clone.dst, step.bias, step.dst)  # expect: E0502


if __name__ == "__main__":
    device = sk.Device.cpu()
    replaced(device, device.new_stream())
