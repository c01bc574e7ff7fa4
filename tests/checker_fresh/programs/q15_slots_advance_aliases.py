# fresh-expect: E0502 at line 29
"""A __slots__ ring buffer whose `advance` moves `dst` into `src` but forgets to give `dst` another buffer."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[i] + src[(i + 1) % n]) * 0.5)


class Ring:
    __slots__ = ("prepared", "src", "dst")

    def __init__(self, prepared, src, dst):
        self.prepared = prepared
        self.src = src
        self.dst = dst

    def step(self, stream):
        smooth.launch(self.prepared, stream, self.src, self.dst)

    def advance(self):
        self.src = self.dst


dev = sk.Device.cpu()
stream = dev.new_stream()
ring = Ring(
    smooth.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev),
    sk.to_device(np.arange(128, dtype=np.float32), stream),
    sk.zeros(128, f32, stream),
)
for _ in range(3):
    ring.step(stream)  # BUG
    ring.advance()
print(ring.src.to_numpy(stream)[:4])
