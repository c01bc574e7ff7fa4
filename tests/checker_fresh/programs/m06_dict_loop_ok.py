# fresh-expect: clean
"""Buffers in a dict, each launched into its own output."""
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


dev = sk.Device.cpu()
stream = dev.new_stream()
ins = {name: sk.to_device(np.full(64, i, np.float32), stream) for i, name in enumerate(("a", "b"))}
outs = {name: sk.zeros(64, f32, stream) for name in ins}
p = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
for name, buf in ins.items():
    vecadd.launch(p, stream, buf, buf, outs[name])
assert float(outs["b"].to_numpy(stream)[0]) == 2.0
