# fresh-expect: E0499 at line 39
"""Audio crossover: low-pass is queued asynchronously while the high-pass runs synchronously, then both are mixed."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024


@simt.kernel
@simt.launch_contract(block=256)
def lowpass(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(0.5 * (x[i] + x[i - 1 if i > 0 else 0]))


@simt.kernel
@simt.launch_contract(block=256)
def highpass(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(0.5 * (x[i] - x[i - 1 if i > 0 else 0]))


def crossover(samples: np.ndarray, dev: sk.Device) -> tuple[np.ndarray, np.ndarray]:
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N, block=256)
    x = sk.to_device(samples, stream)
    low = sk.zeros(N, f32, stream)
    high = sk.zeros(N, f32, stream)
    pending = lowpass.launch_async(lowpass.prepare(cfg, dev), x, low)
    highpass.launch(highpass.prepare(cfg, dev), stream, x, low)
    pending.sync_on(stream)
    return low.to_numpy(stream), high.to_numpy(stream)


if __name__ == "__main__":
    lo, hi = crossover(np.linspace(-1, 1, N, dtype=np.float32), sk.Device.cpu())
    print(lo[:3], hi[:3])
