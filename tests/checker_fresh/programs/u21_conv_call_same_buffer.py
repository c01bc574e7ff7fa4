# fresh-expect: E0502 at line 35
"""A 1-D convolution layer written as a callable object, applied to a stack of feature maps."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 256


@simt.kernel
@simt.launch_contract(block=128)
def conv3(x: Slice[f32], w: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(3):
            j = i + k - 1
            if 0 <= j < len(x):
                acc += w[k] * x[j]
        o.set(acc)


class Conv1D:
    def __init__(self, weights: np.ndarray, dev: sk.Device, stream) -> None:
        self.stream = stream
        self.w = sk.to_device(weights, stream)
        self.prep = conv3.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)

    def __call__(self, x: sk.DeviceBuffer, out: sk.DeviceBuffer) -> sk.DeviceBuffer:
        conv3.launch(self.prep, self.stream, x, self.w, out)
        return out


def main() -> None:
    dev = sk.Device.cpu()
    s = dev.new_stream()
    conv = Conv1D(np.array([0.25, 0.5, 0.25], dtype=np.float32), dev, s)
    maps = [sk.to_device(np.full(N, float(k), dtype=np.float32), s) for k in range(3)]
    outs = []
    for fmap in maps:
        outs.append(conv(fmap, fmap))
    print([o.to_numpy(s)[:2] for o in outs])


if __name__ == "__main__":
    main()
