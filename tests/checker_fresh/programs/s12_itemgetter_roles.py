# fresh-expect: E0502 at line 36
# fresh-note: found since: a helper returning a dict by name that a display and literal-key stores built (a new key added) gives the caller its items
"""Buffer roles are looked up with operator.itemgetter; in-place mode rebinds the output role to the input buffer."""
import operator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


ROLES = operator.itemgetter("input", "output")


def make_roles(n: int, stream, inplace: bool) -> dict:
    roles = {"input": sk.to_device(np.arange(n, dtype=np.float32), stream)}
    roles["output"] = roles["input"] if inplace else sk.zeros(n, f32, stream)
    return roles


def apply(dev, stream, n: int, inplace: bool):
    roles = make_roles(n, stream, inplace)
    src, dst = ROLES(roles)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    scale.launch(prepared, stream, src, dst, 3.0)  # BUG
    return dst.to_numpy(stream)[:4]


dev = sk.Device.cpu()
print(apply(dev, dev.new_stream(), 256, inplace=True))
