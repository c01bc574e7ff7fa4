"""Two reads of one container at computed indices that always evaluate to the same item are one object: the
index is compared as `a * v + c` of one variable, modulo a literal (`(step + 2) % 2` is `step % 2`), and nothing
between the reads changes the variable or the container.  The ping-pong solver meant `+ 1`, so it reads and writes
one buffer in one launch: E0502 (the runtime raises `AliasingError` at each marked line)."""

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

    def step(self) -> None:
        cur = self.fields[self.step_count % 2]
        nxt = self.fields[(self.step_count + 2) % 2]
        smooth.launch(self.prepared, self.stream, cur, nxt, 0.5)  # expect: E0502
        self.step_count += 1


def rolled(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    bufs = [sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)]
    prepared = smooth.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    for t in range(1, 3):
        src = bufs[(t - 1) % len(bufs)]
        dst = bufs[(t - 1) % len(bufs)]
        smooth.launch(prepared, stream, src, dst, 0.5)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    try:
        PingPong(dev, stream, 128).step()
    except sk.AliasingError as err:
        print("AliasingError:", err)
    try:
        rolled(dev, stream, 128)
    except sk.AliasingError as err:
        print("AliasingError:", err)


if __name__ == "__main__":
    main()
