# fresh-expect: E0382 at line 34
"""A model's `to` method moves its weights to another device; the old model object is launched afterwards."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Model:
    def __init__(self, w) -> None:
        self.w = w

    def to(self, dev, stream) -> "Model":
        return Model(self.w.to(dev, stream))


dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
s0, s1 = dev0.new_stream(), dev1.new_stream()
n = 64
m = Model(sk.to_device(np.ones(n, np.float32), s0))
m1 = m.to(dev1, s1)
x = sk.to_device(np.ones(n, np.float32), s0)
out = sk.zeros(n, f32, s0)
vecadd.launch(vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev0), s0, x, m.w, out)  # BUG E0382
