"""A buffer registry keeps the keywords it is built with (`Registry(src=a, dst=a)`, `self._bufs = bufs` of
`**bufs`) and hands them out through `__getitem__`.  The keywords name two buffers, so the launch reading
`reg["src"]` and writing `reg["dst"]` reads one and writes the other: clean."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def copy(a: Slice[f32], b: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := b.get_mut(idx)) is not None:
        o.set(a[i])


class Registry:
    def __init__(self, **bufs: sk.DeviceBuffer) -> None:
        self._bufs = bufs

    def __getitem__(self, name: str) -> sk.DeviceBuffer:
        return self._bufs[name]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(N, np.float32), stream)
    reg = Registry(src=a, dst=sk.zeros(N, f32, stream))
    prepared = copy.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    copy.launch(prepared, stream, reg["src"], reg["dst"])
    print(reg["dst"].to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
