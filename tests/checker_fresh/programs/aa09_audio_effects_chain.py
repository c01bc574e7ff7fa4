# fresh-expect: E0308 at line 65
# fresh-known-miss: cli,mypy prepared launches built over sorted(EFFECTS) zipped with EFFECTS.items(): sorted order differs from the dict order, so a kernel gets another kernel's prepared launch
"""Audio effects chain: apply a fixed sequence of per-sample effects to a block of samples.

Each effect is a SIMT kernel with the same signature (input, output, parameter). The chain prepares every
effect once and ping-pongs between two device buffers while it runs the effects in order.
"""

from __future__ import annotations

import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 512


@simt.kernel
@simt.launch_contract(block=128)
def gain(x: Slice[f32], y: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * g)


@simt.kernel
@simt.launch_contract(block=256)
def clip(x: Slice[f32], y: DisjointSlice[f32], limit: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(min(max(x[i], -limit), limit))


@simt.kernel
@simt.launch_contract(block=128)
def offset(x: Slice[f32], y: DisjointSlice[f32], dc: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] - dc)


EFFECTS = {"gain": (gain, 128, 4.0), "clip": (clip, 256, 1.0), "offset": (offset, 128, 0.1)}


class EffectsChain:
    def __init__(self, dev: sk.Device, n: int) -> None:
        self.n = n
        self.prepared = [
            EFFECTS[name][0].prepare(simt.LaunchConfig1D.for_len(n, block=EFFECTS[name][1]), dev)
            for name in sorted(EFFECTS)
        ]

    def run(self, samples: np.ndarray, stream: sk.Stream) -> np.ndarray:
        src = sk.to_device(samples, stream)
        dst = sk.zeros(self.n, f32, stream)
        for (name, (kernel, _, param)), prep in zip(EFFECTS.items(), self.prepared):
            kernel.launch(prep, stream, src, dst, param)
            src, dst = dst, src
        return src.to_numpy(stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    chain = EffectsChain(dev, BLOCK)
    t = np.arange(BLOCK, dtype=np.float32) / BLOCK
    out = chain.run(np.sin(2 * np.pi * 5 * t).astype(np.float32), stream)
    peaks = [float(v) for v in itertools.islice(sorted(out, reverse=True), 3)]
    print("peak samples:", [round(p, 3) for p in peaks])


if __name__ == "__main__":
    main()
