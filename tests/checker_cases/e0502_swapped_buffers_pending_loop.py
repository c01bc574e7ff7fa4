"""Ping-pong buffers swapped every iteration (`cur, nxt = nxt, cur`) while a `launch_async` step writing `nxt` is
pending: a launch that reads the buffer the pending step writes is E0502, where the runtime refuses the borrow in
the loop's first iteration.  Each path keeps its own loans, so reading `cur` (which the pending step only reads)
is no conflict on any path (the clean twin)."""

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
        relax.launch(prepared, stream, nxt, probe)  # expect: E0502
        pending.sync_on(stream)
        cur, nxt = nxt, cur


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = relax.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    try:
        simulate(3, prepared, stream)
    except sk.BorrowError as err:
        print("BorrowError:", err)


if __name__ == "__main__":
    main()
