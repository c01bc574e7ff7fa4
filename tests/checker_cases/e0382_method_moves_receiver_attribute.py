"""A method that moves an attribute of its receiver by a method other libraries define too (`self.w.to(...)`,
`self.out.partition(...)`) moves the caller's buffer when the caller knows that attribute is a device value (it
hands it to a kernel, or a constructor was given one): using it afterwards is a use after move
(`UseAfterMoveError` at run time)."""

from typing import Any

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


class Model:
    def __init__(self, w: Any) -> None:
        self.w = w

    def to(self, dev: sk.Device, stream: sk.Stream) -> "Model":
        return Model(self.w.to(dev, stream))


class Stage:
    def __init__(self, out: Any) -> None:
        self.out = out

    def tiles(self) -> Any:
        return self.out.partition((16,))


def main() -> None:
    dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
    s0, s1 = dev0.new_stream(), dev1.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev0)
    x = sk.to_device(np.ones(32, np.float32), s0)
    m = Model(sk.to_device(np.ones(32, np.float32), s0))
    m1 = m.to(dev1, s1)
    vecadd.launch(prep, s0, x, m.w, sk.zeros(32, f32, s0))  # expect: E0382
    stage = Stage(sk.zeros(32, f32, s0))
    parts = stage.tiles()
    print(stage.out.to_numpy(s0))  # expect: E0382
    print(m1, parts)
