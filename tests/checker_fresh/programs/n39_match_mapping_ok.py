# fresh-expect: clean
"""A match on a plan dict: every plan reads one buffer and writes another."""
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


def smooth(stream, dev, data, scratch, plan_name: str):
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    plan = {"src": data, "dst": scratch} if plan_name == "forward" else {"src": scratch, "dst": data}
    match plan:
        case {"src": src, "dst": dst}:
            vecadd.launch(prepared, stream, src, src, dst)
    return scratch


dev = sk.Device.cpu()
stream = dev.new_stream()
out = smooth(stream, dev, sk.to_device(np.ones(64, np.float32), stream), sk.zeros(64, f32, stream), "forward")
assert (out.to_numpy(stream) == 2.0).all()
