"""A dataclass instance re-derived with `dataclasses.replace` keeps the fields it does not replace, and one copied
with `copy.copy` keeps all of them: replacing the destination with a new buffer, swapping source and destination
(`step = dataclasses.replace(step, src=step.dst, dst=step.src)` reads the old fields first) and launching a copy's
fields as the original's each keep the input and the output apart."""

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
    low = dataclasses.replace(step, dst=sk.zeros(64, f32, stream))
    axpy.launch(prepared, stream, low.src, low.bias, low.dst)
    step = dataclasses.replace(step, src=step.dst, dst=step.src)
    axpy.launch(prepared, stream, step.src, step.bias, step.dst)
    print(step.dst.to_numpy(stream)[:2], low.dst.to_numpy(stream)[:2])


def copied(dev: sk.Device, stream: sk.Stream) -> None:
    step = StepBuffers(
        src=sk.to_device(np.arange(64, dtype=np.float32), stream),
        bias=sk.to_device(np.ones(64, np.float32), stream),
        dst=sk.zeros(64, f32, stream),
    )
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    clone = copy.copy(step)
    axpy.launch(prepared, stream, clone.src, step.bias, step.dst)
    print(clone.dst.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    replaced(device, device.new_stream())
    copied(device, device.new_stream())
