# fresh-expect: E0502 at line 32
"""A filter bank built with functools.partial: each band's launch is bound once and applied per channel."""

from functools import partial

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 512


@simt.kernel
@simt.launch_contract(block=128)
def gain(x: Slice[f32], taps: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * taps[i % len(taps)])


def filter_channels(channels: list[np.ndarray], dev: sk.Device) -> list[np.ndarray]:
    stream = dev.new_stream()
    taps = sk.to_device(np.array([0.5, 1.0, 0.5, 0.25], dtype=np.float32), stream)
    apply_gain = partial(gain.launch, gain.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev), stream)
    out = []
    for ch in channels:
        buf = sk.to_device(ch, stream)
        apply_gain(buf, taps, buf)  # "in place, to save a buffer per channel"
        out.append(buf.to_numpy(stream))
    return out


if __name__ == "__main__":
    chans = [np.ones(N, dtype=np.float32) for _ in range(2)]
    print(filter_channels(chans, sk.Device.cpu())[0][:4])
