# fresh-expect: E0382 at line 27
"""After buf.to(other_device) the old handle is gone."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def spread(n: int) -> None:
    cpu0, cpu1 = sk.Device.cpu(0), sk.Device.cpu(1)
    s0, s1 = cpu0.new_stream(), cpu1.new_stream()
    x = sk.to_device(np.ones(n, np.float32), s0)
    y = sk.to_device(np.ones(n, np.float32), s0)
    out0 = sk.zeros(n, f32, s0)
    x_remote = x.to(cpu1, s1)
    print("moved", x_remote.device)
    vecadd.launch(vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), cpu0), s0, x, y, out0)  # BUG E0382


spread(64)
