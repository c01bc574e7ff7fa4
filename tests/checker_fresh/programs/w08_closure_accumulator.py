# fresh-expect: E0502 at line 25
# fresh-note: found since: a function a factory returns reads the factory call's arguments as its captured parameters
"""Gradient accumulation: a factory returns a closure that adds each micro-batch into a running sum."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


def make_accumulator(dev: sk.Device, stream: sk.Stream, total: sk.DeviceBuffer[f32]):
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(len(total), block=128), dev)

    def accumulate(grad: sk.DeviceBuffer[f32], into: sk.DeviceBuffer[f32]) -> None:
        vecadd.launch(prep, stream, total, grad, into)

    return accumulate


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    running = sk.zeros(n, f32, stream)
    spare = sk.zeros(n, f32, stream)
    accumulate = make_accumulator(dev, stream, running)
    for step in range(3):
        grad = sk.to_device(np.full(n, float(step), dtype=np.float32), stream)
        accumulate(grad, spare)
        print("partial", spare.to_numpy(stream)[0])
    accumulate(spare, running)
    print(running.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
