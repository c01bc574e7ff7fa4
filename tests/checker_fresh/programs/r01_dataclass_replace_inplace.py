# fresh-expect: E0502 at line 31
"""A training step keeps its buffers in a frozen dataclass; a memory-saving variant is derived with
`dataclasses.replace`, pointing the destination at the source."""
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


def run_step(step: StepBuffers, prepared, stream) -> None:
    axpy.launch(prepared, stream, step.src, step.bias, step.dst)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    step = StepBuffers(
        src=sk.to_device(np.arange(n, dtype=np.float32), stream),
        bias=sk.to_device(np.ones(n, np.float32), stream),
        dst=sk.zeros(n, f32, stream),
    )
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    run_step(step, prepared, stream)
    low_mem = dataclasses.replace(step, dst=step.src)
    run_step(low_mem, prepared, stream)  # BUG
    print(step.src.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
