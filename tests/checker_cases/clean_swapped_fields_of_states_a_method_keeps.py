"""Moment buffers swapped in a loop over parameters: each iteration takes its state object from a method that
creates it on first use and keeps it in a dict (`self.state[name]`), launches, then swaps the object's fields
(`st.m, st.m_next = st.m_next, st.m`).  The next iteration's state is another object, whose fields are two
buffers of their own: no launch reads and writes one buffer."""

from dataclasses import dataclass
from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


@dataclass
class St:
    m: Any
    m_next: Any


def make(stream: Any) -> St:
    return St(sk.zeros(64, f32, stream), sk.zeros(64, f32, stream))


class Opt:
    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.state: dict[str, St] = {}

    def state_for(self, name: str) -> St:
        if name not in self.state:
            self.state[name] = make(self.stream)
        return self.state[name]

    def step(self, prep: Any, grads: dict[str, Any]) -> None:
        for name, g in grads.items():
            st = self.state_for(name)
            vecadd.launch(prep, self.stream, g, st.m, st.m_next)
            st.m, st.m_next = st.m_next, st.m
            vecadd.launch(prep, self.stream, g, st.m, st.m_next)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    g = sk.zeros(64, f32, stream)
    opt = Opt(stream)
    for _ in range(3):
        opt.step(prep, {"a": g, "b": sk.zeros(64, f32, stream)})


if __name__ == "__main__":
    main()
