# fresh-expect: W0003 at line 41
"""Streaming FIR filter: each block of samples is filtered asynchronously, with a logging callback chained on."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 512
TAPS = 4


@simt.kernel
@simt.launch_contract(block=128)
def fir(x: Slice[f32], taps: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(4):
            if i >= k:
                acc += taps[k] * x[i - k]
        o.set(acc)


def log_block(value):
    print("filtered block of", len(value[0]), "samples")
    return value


def process(stream_of_blocks, dev: sk.Device) -> list:
    stream = dev.new_stream()
    taps = sk.to_device(np.full(TAPS, 0.25, dtype=np.float32), stream)
    prep = fir.prepare(simt.LaunchConfig1D.for_len(BLOCK, block=128), dev)
    outputs = []
    for block in stream_of_blocks:
        x = sk.to_device(block, stream)
        y = sk.zeros(BLOCK, f32, stream)
        fir.launch_async(prep, x, taps, y).then(log_block)  # the callback chain is never synced
        outputs.append(y)
    return [y.to_numpy(stream) for y in outputs]


if __name__ == "__main__":
    blocks = [np.ones(BLOCK, dtype=np.float32) * k for k in range(2)]
    print(process(blocks, sk.Device.cpu())[1][:6])
