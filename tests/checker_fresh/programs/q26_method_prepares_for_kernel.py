# fresh-expect: E0308 at line 43
"""A launcher object prepares whichever kernel it is given; the launch uses the one prepared for another kernel."""
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


@simt.kernel
@simt.launch_contract(block=64)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


class Launcher:
    def __init__(self, dev, n: int):
        self.dev = dev
        self.config = simt.LaunchConfig1D.for_len(n, block=64)

    def prepared(self, kernel):
        return kernel.prepare(self.config, self.dev)


dev = sk.Device.cpu()
stream = dev.new_stream()
launcher = Launcher(dev, 128)
add_launch = launcher.prepared(vecadd)
x = sk.to_device(np.ones(128, np.float32), stream)
out = sk.zeros(128, f32, stream)
saxpy.launch(add_launch, stream, x, x, out, 0.5)  # BUG
print(out.to_numpy(stream)[:4])
