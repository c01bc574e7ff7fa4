"""Computed indices that differ, or a variable that changes between two reads, read different items: the ping-pong
solver reads `step % 2` and writes `(step + 1) % 2`, the rolling loop advances `t` between its reads and a method
call between two reads may change the index it reads, so none of these launches reads and writes one buffer (the
runtime runs them all)."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(cur: Slice[f32], nxt: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := nxt.get_mut(idx)) is not None:
        o.set(alpha * cur[i])


class PingPong:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.fields = [sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream)]
        self.prepared = smooth.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
        self.step_count = 0

    def advance(self) -> None:
        self.step_count += 1

    def step(self) -> None:
        cur = self.fields[self.step_count % 2]
        nxt = self.fields[(self.step_count + 1) % 2]
        smooth.launch(self.prepared, self.stream, cur, nxt, 0.5)
        self.step_count += 1

    def step_by_method(self) -> None:
        cur = self.fields[self.step_count % 2]
        self.advance()
        nxt = self.fields[self.step_count % 2]
        smooth.launch(self.prepared, self.stream, cur, nxt, 0.5)


def rolled(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    bufs = [sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)]
    prepared = smooth.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    t = 0
    while t < 2:
        src = bufs[t % len(bufs)]
        t += 1
        dst = bufs[t % len(bufs)]
        smooth.launch(prepared, stream, src, dst, 0.5)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    solver = PingPong(dev, stream, 128)
    solver.step()
    solver.step_by_method()
    rolled(dev, stream, 128)
    print("ok")


if __name__ == "__main__":
    main()
