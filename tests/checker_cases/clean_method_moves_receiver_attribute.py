"""The clean twin of `e0382_method_moves_receiver_attribute`: after a method moved a receiver's attribute the caller uses
the object the method returned (`m = m.to(...)`), and a method moving an attribute of host data (a list's `sort`
is no moving method; a string's `partition` moves nothing) leaves the caller's values usable."""

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


class Config:
    def __init__(self, line: str) -> None:
        self.line = line

    def key(self) -> str:
        return self.line.partition("=")[0]


def main() -> None:
    dev0, dev1 = sk.Device.cpu(0), sk.Device.cpu(1)
    s0, s1 = dev0.new_stream(), dev1.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev1)
    x = sk.to_device(np.ones(32, np.float32), s1)
    m = Model(sk.to_device(np.ones(32, np.float32), s0))
    m = m.to(dev1, s1)
    vecadd.launch(prep, s1, x, m.w, sk.zeros(32, f32, s1))
    config = Config("size=32")
    print(config.key(), config.line.upper())
