"""Pending ops kept in a list: two ops of one iteration write the same item's field (`p.spare`), the first
still pending when the second borrows it (E0499), as the runtime's `BorrowError` says."""

from dataclasses import dataclass
from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def step(w: Slice[f32], g: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(w[i] - 0.1 * g[i])


@dataclass
class Param:
    data: Any
    spare: Any


class SGD:
    def __init__(self, params: dict[str, Param], stream: Any, prep: Any) -> None:
        self.params = params
        self.stream = stream
        self.prep = prep

    def step(self, grads: dict[str, Any]) -> None:
        pending = []
        for name, grad in grads.items():
            p = self.params[name]
            pending.append(step.launch_async(self.prep, p.data, grad, p.spare))
            pending.append(step.launch_async(self.prep, grad, p.data, p.spare))  # expect: E0499
        for op in pending:
            op.sync_on(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = step.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    params = {n: Param(sk.zeros(64, f32, stream), sk.zeros(64, f32, stream)) for n in ("w", "b")}
    grads = {n: sk.zeros(64, f32, stream) for n in ("w", "b")}
    SGD(params, stream, prep).step(grads)


if __name__ == "__main__":
    main()
