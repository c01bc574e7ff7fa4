# fresh-expect: E0502 at line 30
"""A scaler object with __call__ is reused for an in-place update: the same buffer is read and written."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


class Scaler:
    """Callable launcher: `scaler(src, dst)` runs `dst = alpha * src`."""

    def __init__(self, prepared, stream, alpha: float) -> None:
        self.prepared = prepared
        self.stream = stream
        self.alpha = alpha

    def __call__(self, src, dst) -> None:
        scale.launch(self.prepared, self.stream, src, dst, self.alpha)


def normalise(dev, stream, n: int):
    weights = sk.to_device(np.arange(n, dtype=np.float32), stream)
    staged = sk.zeros(n, f32, stream)
    scaler = Scaler(scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev), stream, 0.5)
    scaler(weights, staged)
    scaler(staged, staged)  # BUG
    return staged.to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(normalise(dev, dev.new_stream(), 256))
