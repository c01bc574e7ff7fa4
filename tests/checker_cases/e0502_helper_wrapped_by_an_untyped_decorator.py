"""A launch helper wrapped by the module's own forwarding decorator declared without types (`def logged(fn: Any)
-> Any`, so mypy types the helper as `Any` and calls no hook for its calls): its call still applies the helper's
launch to the caller's arguments, and passing `b` as both the read and the written buffer is E0502."""

import functools
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


def logged(fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


@logged
def accumulate(prep: Any, stream: Any, x: Any, y: Any, out: Any) -> None:
    vecadd.launch(prep, stream, x, y, out)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    accumulate(prep, stream, a, b, b)


if __name__ == "__main__":
    main()
