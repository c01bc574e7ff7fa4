"""The clean twin of `e0499_method_returns_receiver_slices`: a method returning slices of one attribute of its
receiver with literal bounds that do not overlap hands back two disjoint views of the caller's buffer, and a method
returning computed slices of two attributes (`self.keys[...]`, `self.values[...]`) views two buffers."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

D = 64


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


class Cache:
    def __init__(self, stream: sk.Stream) -> None:
        self.packed = sk.zeros(4 * D, f32, stream)
        self.keys = sk.zeros(2 * D, f32, stream)
        self.values = sk.zeros(2 * D, f32, stream)

    def slots(self, head: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        base = head * D
        return self.keys[base : base + D], self.values[base : base + D]

    def halves(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return self.packed.view(0, 128), self.packed.view(128, 256)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(D, dtype=np.float32), stream)
    cache = Cache(stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(D, block=64), dev)
    for head in range(2):
        k, v = cache.slots(head)
        split2.launch(prepared, stream, src, k, v)
    lo, hi = cache.halves()
    split2.launch(prepared, stream, src, lo, hi)
    print(cache.packed.to_numpy(stream)[:2], cache.keys.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
