# fresh-expect: W0003 at line 31
# fresh-note: -
"""Async request handling: a cancelled request skips its result, and its launched op is never run."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 256


@simt.kernel
@simt.launch_contract(block=128)
def score(q: Slice[f32], keys: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(q[i] * keys[i])


def handle(requests: list[dict[str, float]], dev: sk.Device) -> list[np.ndarray]:
    stream = dev.new_stream()
    prep = score.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    keys = sk.to_device(np.ones(N, dtype=np.float32), stream)
    done = []
    for req in requests:
        q = sk.to_device(np.full(N, float(req["scale"]), dtype=np.float32), stream)
        out = sk.zeros(N, f32, stream)
        op = score.launch_async(prep, q, keys, out)
        if req.get("cancelled"):
            continue
        op.sync_on(stream)
        done.append(out.to_numpy(stream))
    return done


results = handle([{"scale": 1.0}, {"scale": 2.0, "cancelled": 1.0}, {"scale": 3.0}], sk.Device.cpu())
print(len(results))
