"""A method returns slices of an attribute of its receiver (`return self.packed[base : base + D], ...`): the caller's
items are views of its object's buffer (`cache.packed`), and with computed bounds they may overlap, as the same
slices written inline may: both as outputs of one launch is E0499 (the runtime refuses the overlapping ranges).
Literal bounds that overlap (`self.packed.view(0, 160)`, `self.packed.view(128, 256)`) are E0499 too."""

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

    def slots(self, head: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        base = 2 * head * D
        return self.packed[base : base + D], self.packed[base + D // 2 : base + D + D // 2]

    def halves(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return self.packed.view(0, 160), self.packed.view(128, 256)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(D, dtype=np.float32), stream)
    cache = Cache(stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(D, block=64), dev)
    for head in range(2):
        k, v = cache.slots(head)
        split2.launch(prepared, stream, src, k, v)  # expect: E0499
    lo, hi = cache.halves()
    split2.launch(prepared, stream, src, lo, hi)  # expect: E0499
    print(cache.packed.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
