# fresh-expect: E0502 at line 32
"""Ping-pong state kept in a NamedTuple; the rebuild after each step repeats `nxt` instead of swapping."""
from typing import NamedTuple

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[i] + src[(i + 1) % n]) * 0.5)


class PingPong(NamedTuple):
    cur: sk.DeviceBuffer
    nxt: sk.DeviceBuffer


dev = sk.Device.cpu()
stream = dev.new_stream()
prepared = smooth.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
state = PingPong(cur=sk.to_device(np.arange(128, dtype=np.float32), stream), nxt=sk.zeros(128, f32, stream))
for step in range(3):
    smooth.launch(prepared, stream, state.cur, state.nxt)  # BUG
    state = PingPong(cur=state.nxt, nxt=state.nxt)
print(state.cur.to_numpy(stream)[:4])
