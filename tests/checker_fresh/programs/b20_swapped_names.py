# fresh-expect: E0502 at line 25
"""Ping-pong buffers whose swap went wrong: after the second swap both names are one buffer."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 0.5)


dev = sk.Device.cpu()
stream = dev.new_stream()
ping = sk.to_device(np.ones(96, np.float32), stream)
pong = sk.zeros(96, f32, stream)
launch = smooth.prepare(simt.LaunchConfig1D.for_len(96, block=32), dev)
for it in range(4):
    smooth.launch(launch, stream, ping, pong)  # BUG E0502
    ping, pong = pong, pong
