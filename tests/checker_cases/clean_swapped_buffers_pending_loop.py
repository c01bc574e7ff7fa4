"""Ping-pong buffers swapped every iteration (`cur, nxt = nxt, cur`) while a `launch_async` step writing `nxt` is
pending: a launch reading `cur`, which the pending step only reads, is fine on every path (before, the loans of
the two paths were joined, so `cur` looked written by the pending step), and the runtime runs it."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def relax(cur: Slice[f32], nxt: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := nxt.get_mut(thread.index_1d())) is not None:
        o.set(cur[i] * 0.5)


def simulate(steps: int, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    cur = sk.to_device(np.arange(64, dtype=np.float32), stream)
    nxt = sk.zeros(64, f32, stream)
    probe = sk.zeros(64, f32, stream)
    for _ in range(steps):
        pending = relax.launch_async(prepared, cur, nxt)
        relax.launch(prepared, stream, cur, probe)
        pending.sync_on(stream)
        cur, nxt = nxt, cur


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = relax.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    simulate(3, prepared, stream)
    print("ok")


if __name__ == "__main__":
    main()
