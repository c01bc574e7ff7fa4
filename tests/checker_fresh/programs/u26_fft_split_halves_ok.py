# fresh-expect: clean
"""Radix-2 style staged passes on two proven-disjoint halves of one buffer (`split_at`), reused every stage."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def butterfly(lower: Slice[f32], upper: DisjointSlice[f32], twiddle: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := upper.get_mut(idx)) is not None:
        o.set(lower[i] - twiddle * o.get())


def stage_halves(buf: sk.DeviceBuffer, n: int):
    return buf.split_at(n // 2)


def transform(signal: np.ndarray, stages: int, dev: sk.Device) -> np.ndarray:
    stream = dev.new_stream()
    n = signal.size
    data = sk.to_device(signal.astype(np.float32), stream)
    prep = butterfly.prepare(simt.LaunchConfig1D.for_len(n // 2, block=64), dev)
    for s in range(stages):
        lower, upper = stage_halves(data, n)
        butterfly.launch(prep, stream, lower, upper, float(np.cos(np.pi / (s + 2))))
    return data.to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(transform(np.arange(256, dtype=np.float32), 3, dev)[:4])
