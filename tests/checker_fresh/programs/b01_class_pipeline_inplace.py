# fresh-expect: E0502 at line 28
"""A small class that owns its buffers and launches a kernel from a method."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Accumulator:
    def __init__(self, n: int) -> None:
        self.dev = sk.Device.cpu()
        self.stream = self.dev.new_stream()
        self.total = sk.zeros(n, f32, self.stream)
        self.step = sk.to_device(np.ones(n, np.float32), self.stream)
        self.prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=128), self.dev)

    def add_step(self) -> None:
        vecadd.launch(self.prepared, self.stream, self.total, self.step, self.total)  # BUG E0502

    def result(self) -> np.ndarray:
        return self.total.to_numpy(self.stream)


acc = Accumulator(300)
for _ in range(3):
    acc.add_step()
print(acc.result()[:3])
