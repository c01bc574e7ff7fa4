# fresh-expect: E0505 at line 24
"""Moving a buffer to the second CPU executor while an async launch still borrows it."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
s0, s1 = dev0.new_stream(), dev1.new_stream()
x = sk.to_device(np.arange(40, dtype=np.float32), s0)
out = sk.zeros(40, f32, s0)
pending = scale.launch_async(scale.prepare(simt.LaunchConfig1D.for_len(40, block=32), dev0), x, out, 3.0)
remote = out.to(dev1, s1)  # BUG E0505
pending.sync_on(s0)
print(remote.to_numpy(s1)[:3])
