"""A helper that launches the fields of the object it is handed (`run_step(step, ...)` launching `step.src`,
`step.bias`, `step.dst`) borrows the caller's fields at the call, whatever the argument is: a dataclass instance
whose `dst` is its `src` (`dataclasses.replace(step, dst=step.src)`) or a plain object holding one buffer twice
makes that call an aliasing launch."""

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


class Pair:
    def __init__(self, x: sk.DeviceBuffer, y: sk.DeviceBuffer) -> None:
        self.x = x
        self.y = y


def run_step(step: StepBuffers, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    axpy.launch(prepared, stream, step.src, step.bias, step.dst)  # expect: E0502


def run_pair(pair: Pair, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    axpy.launch(prepared, stream, pair.x, pair.x, pair.y)  # expect: E0502


def replaced(dev: sk.Device, stream: sk.Stream) -> None:
    step = StepBuffers(
        src=sk.to_device(np.arange(64, dtype=np.float32), stream),
        bias=sk.to_device(np.ones(64, np.float32), stream),
        dst=sk.zeros(64, f32, stream),
    )
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    run_step(step, prepared, stream)
    low = dataclasses.replace(step, dst=step.src)
    run_step(low, prepared, stream)


def plain_object(dev: sk.Device, stream: sk.Stream) -> None:
    c = sk.zeros(64, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    pair = Pair(c, c)
    run_pair(pair, prepared, stream)


if __name__ == "__main__":
    device = sk.Device.cpu()
    replaced(device, device.new_stream())
