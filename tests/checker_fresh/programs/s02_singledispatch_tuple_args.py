# fresh-expect: E0502 at line 47
# fresh-known-miss: cli,mypy functools.singledispatch overloads (`@submit.register`) are not followed
"""A singledispatch submit() accepts either a ready buffer triple or a dict; the dict path reuses the output as an
input."""
import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@functools.singledispatch
def submit(args, prepared, stream) -> None:
    raise TypeError(f"cannot submit {type(args).__name__}")


@submit.register
def _(args: tuple, prepared, stream) -> None:
    vecadd.launch(prepared, stream, *args)


@submit.register
def _(args: dict, prepared, stream) -> None:
    submit((args["lhs"], args["rhs"], args["out"]), prepared, stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    a = sk.to_device(np.ones(n, np.float32), stream)
    acc = sk.zeros(n, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    submit((a, a, acc), prepared, stream)
    submit({"lhs": acc, "rhs": a, "out": acc}, prepared, stream)  # BUG
    print(acc.to_numpy(stream)[:4])


main()
