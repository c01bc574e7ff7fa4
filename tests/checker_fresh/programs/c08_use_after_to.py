# fresh-expect: clean
"""Moving inputs to the second CPU executor and launching there with the new handles."""
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


def spread(n: int) -> float:
    cpu0, cpu1 = sk.Device.cpu(0), sk.Device.cpu(1)
    s0, s1 = cpu0.new_stream(), cpu1.new_stream()
    x = sk.to_device(np.ones(n, np.float32), s0)
    y = sk.to_device(np.ones(n, np.float32), s0)
    x, y = x.to(cpu1, s1), y.to(cpu1, s1)
    out = sk.zeros(n, f32, s1)
    vecadd.launch(vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=32), cpu1), s1, x, y, out)
    return float(out.to_numpy(s1).sum())


assert spread(64) == 128.0
