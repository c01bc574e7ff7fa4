"""The look-alike of `e0382_retry_decorator_calls_again`: the retried function launches a SIMT kernel, which only
borrows its arguments, so running it again with the same buffers is fine."""

import functools
from collections.abc import Callable
from typing import Any

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


def retry(times: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for attempt in range(times):
                try:
                    return fn(*args, **kwargs)
                except RuntimeError:
                    print("retrying after attempt", attempt)
            raise RuntimeError("gave up")

        return wrapper

    return deco


calls = {"n": 0}


@retry(3)
def step(prepared: Any, stream: sk.Stream, a: sk.DeviceBuffer, c: sk.DeviceBuffer) -> sk.DeviceBuffer:
    vecadd.launch(prepared, stream, a, a, c)
    calls["n"] += 1
    if calls["n"] == 1:
        raise RuntimeError("transient")
    return c


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(256, np.float32), stream)
    c = sk.zeros(256, f32, stream)
    prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(256, block=64), dev)
    out = step(prepared, stream, a, c)
    print(out.to_numpy(stream)[:2], a.to_numpy(stream)[:2])


main()
