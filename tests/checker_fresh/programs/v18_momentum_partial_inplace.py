# fresh-expect: E0502 at line 44
# fresh-note: found since: a loop target taking the partials a list comprehension builds is one of them
"""Momentum optimizer: launches bound with functools.partial per parameter group."""
import functools
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def momentum(buf: Slice[f32], grad: Slice[f32], buf_out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := buf_out.get_mut(idx)) is not None:
        o.set(buf[i] * 0.9 + grad[i])


@dataclass
class MomentumState:
    buf: sk.DeviceBuffer
    spare: sk.DeviceBuffer


dev = sk.Device.cpu()
stream = dev.new_stream()
groups = [{"lr": 0.1, "size": 512}, {"lr": 0.01, "size": 256}]
states = [MomentumState(sk.zeros(g["size"], f32, stream), sk.zeros(g["size"], f32, stream)) for g in groups]
steppers = [
    functools.partial(momentum.launch, momentum.prepare(simt.LaunchConfig1D.for_len(int(g["size"]), 128), dev), stream)
    for g in groups
]
grads = [sk.to_device(np.full(int(g["size"]), g["lr"], dtype=np.float32), stream) for g in groups]
for i, (step, state, grad) in enumerate(zip(steppers, states, grads, strict=True)):
    if i == 0:
        step(state.buf, grad, state.spare)
        state.buf, state.spare = state.spare, state.buf
    else:
        step(state.buf, grad, state.buf)
print([s.buf.to_numpy(stream)[0] for s in states])
