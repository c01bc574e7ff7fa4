# fresh-expect: E0499 at line 44
# fresh-note: -
"""Adam optimizer port: first/second moment state kept in a dataclass per parameter."""
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def moments(grad: Slice[f32], m_out: DisjointSlice[f32], v_out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    g = grad[i]
    if (m := m_out.get_mut(idx)) is not None:
        m.set(g)
    jdx = thread.index_1d()
    if (v := v_out.get_mut(jdx)) is not None:
        v.set(g * g)


@dataclass
class AdamState:
    m: sk.DeviceBuffer
    v: sk.DeviceBuffer
    step: int = 0
    history: list[float] = field(default_factory=list)


class Adam:
    def __init__(self, dev: sk.Device, stream: sk.Stream, sizes: dict[str, int]) -> None:
        self.stream = stream
        self.prepared = {k: moments.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev) for k, n in sizes.items()}
        self.state = {name: AdamState(sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)) for name, n in sizes.items()}

    def step(self, grads: dict[str, sk.DeviceBuffer]) -> None:
        for name, grad in grads.items():
            st = self.state[name]
            moments.launch(self.prepared[name], self.stream, grad, st.m, st.m)
            st.step += 1


dev = sk.Device.cpu()
stream = dev.new_stream()
opt = Adam(dev, stream, {"w": 256})
grads = {"w": sk.to_device(np.full(256, 0.1, dtype=np.float32), stream)}
opt.step(grads)
print(opt.state["w"].m.to_numpy(stream)[:2])
