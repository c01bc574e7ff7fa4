"""A beamformer keeps its kernels in a module table and its prepared launches in a dict `__init__` builds under the
same keys; `steer` binds `kernel = KERNELS[mode]` and launches it with `self.prepared[mode]`.  The prepared dict was
copy-pasted, so under `"weighted"` it holds a launch prepared for `delay_sum` (E0308, as the runtime's
`BrandError` says).  A name bound once to a table's item under a key the function never rebinds is that item: the
launch is checked once per key, each kernel with the launch under its own key."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def delay_sum(mics: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(mics[i] + mics[i])


@simt.kernel
@simt.launch_contract(block=32)
def weighted(mics: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(0.25 * mics[i])


KERNELS = {"delay_sum": delay_sum, "weighted": weighted}


class Beamformer:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.mics = sk.to_device(np.ones(N, np.float32), stream)
        cfg = simt.LaunchConfig1D.for_len(N, block=32)
        self.prepared = {"delay_sum": delay_sum.prepare(cfg, dev), "weighted": delay_sum.prepare(cfg, dev)}

    def steer(self, mode: str) -> np.ndarray:
        out = sk.zeros(N, f32, self.stream)
        kernel = KERNELS[mode]
        kernel.launch(self.prepared[mode], self.stream, self.mics, out)  # expect: E0308
        return out.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    former = Beamformer(dev, dev.new_stream())
    for mode in ("delay_sum", "weighted"):
        print(mode, former.steer(mode)[:4])


if __name__ == "__main__":
    main()
