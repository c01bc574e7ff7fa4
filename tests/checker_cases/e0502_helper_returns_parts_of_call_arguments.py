"""A helper returning its parameters as a tuple (`pair(u, v, flip)`), called with arguments that are calls
giving the caller's own buffers (`first_of(a, b)` of a helper returning a parameter, `named.get("absent", a)`): the
parts are those buffers, here `a` both, so the launch reading `src` and writing `dst` is E0502.  A helper's guarded
return (`pick(h, first_of(c, a))`) reads such an argument the same way."""

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


def first_of(u: Any, v: Any) -> Any:
    return u


def pair(u: Any, v: Any, flip: bool) -> tuple[Any, Any]:
    return (v, u) if flip else (u, v)


def pick(held: Bufs, out: Any = None) -> Any:
    if out is None:
        return held.a
    return out


def run(flip: bool) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a, b, c = sk.zeros(64, f32, stream), sk.zeros(64, f32, stream), sk.zeros(64, f32, stream)
    named = {"a": a, "b": b}
    src, dst = pair(first_of(a, b), named.get("absent", a), flip)
    vecadd.launch(prep, stream, src, b, dst)  # expect: E0502
    h = Bufs(a, b)
    out = pick(h, first_of(c, a))
    vecadd.launch(prep, stream, c, b, out)  # expect: E0502


def main() -> None:
    run(False)


if __name__ == "__main__":
    main()
