"""A helper returning its parameter (`if out is None: return held.a`, then `return out`) called with an expression
over buffers (`pick(h, c or a)`): the result is what that expression gives after the call, `c` here (a buffer is
never None, so the guard's return does not run), and the launch reading `c` and writing it is E0502."""

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
class Bufs:
    a: Any
    b: Any
    c: Any


def pick(held: Bufs, out: Any = None) -> Any:
    if out is None:
        return held.a
    return out


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a, b, c = sk.zeros(64, f32, stream), sk.zeros(64, f32, stream), sk.zeros(64, f32, stream)
    h = Bufs(a, b, c)
    dst = pick(h, c or a)
    vecadd.launch(prep, stream, a, c, dst)  # expect: E0502


if __name__ == "__main__":
    main()
