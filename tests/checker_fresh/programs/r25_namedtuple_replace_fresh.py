# fresh-expect: clean
"""Clean twin of a dataclass `replace` bug: a typing.NamedTuple of step buffers is re-derived with `_replace`, but
the new destination is a fresh buffer, and the old destination becomes the next source."""
from typing import NamedTuple

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


class StepBuffers(NamedTuple):
    src: sk.DeviceBuffer
    bias: sk.DeviceBuffer
    dst: sk.DeviceBuffer


def run_step(step: StepBuffers, prepared, stream) -> None:
    axpy.launch(prepared, stream, step.src, step.bias, step.dst)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    step = StepBuffers(sk.to_device(np.ones(n, np.float32), stream), sk.to_device(np.ones(n, np.float32), stream),
                       sk.zeros(n, f32, stream))
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    for _ in range(3):
        run_step(step, prepared, stream)
        step = step._replace(src=step.dst, dst=sk.zeros(n, f32, stream))
    print(step.src.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
