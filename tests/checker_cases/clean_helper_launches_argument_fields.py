"""A helper that launches the fields of the object it is handed borrows the caller's fields at the call: a
dataclass instance re-derived with a new destination (`dataclasses.replace(step, dst=...)`), one with source and
destination swapped, and a plain object holding two buffers each keep the input and the output apart."""

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
    axpy.launch(prepared, stream, step.src, step.bias, step.dst)


def run_pair(pair: Pair, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    axpy.launch(prepared, stream, pair.x, pair.x, pair.y)


def main(dev: sk.Device, stream: sk.Stream) -> None:
    step = StepBuffers(
        src=sk.to_device(np.arange(64, dtype=np.float32), stream),
        bias=sk.to_device(np.ones(64, np.float32), stream),
        dst=sk.zeros(64, f32, stream),
    )
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    run_step(step, prepared, stream)
    fresh = dataclasses.replace(step, dst=sk.zeros(64, f32, stream))
    run_step(fresh, prepared, stream)
    swapped = dataclasses.replace(step, src=step.dst, dst=step.src)
    run_step(swapped, prepared, stream)
    run_pair(Pair(step.src, step.dst), prepared, stream)
    print(step.dst.to_numpy(stream)[:2])


if __name__ == "__main__":
    device = sk.Device.cpu()
    main(device, device.new_stream())
