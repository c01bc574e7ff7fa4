"""`launch_unchecked` of a kernel passed to a helper as a parameter typed `Any`: the helper is called inside
`with simt.unsafe():`, but the unsafe block does not extend into the helper's body, so the unchecked launch is
refused (`UnsafeRequiredError` at run time).  mypy types the parameter as `Any` and calls no plugin hook for a
member call on it; the plugin analyses the helper from the hook of a call of it (the second call
reports nothing again)."""

from __future__ import annotations

from typing import Any

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


def raw_launch(kernel: Any, config: Any, stream: Any, *args: Any) -> None:
    kernel.launch_unchecked(config, stream, *args)  # expect: E0133


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = sk.zeros(32, f32, stream)
    y = sk.zeros(32, f32, stream)
    config = simt.LaunchConfig1D.for_len(32, block=32)
    with simt.unsafe():
        raw_launch(scale, config, stream, x, y, 2.0)
    with simt.unsafe():
        raw_launch(scale, config, stream, x, y, 3.0)
