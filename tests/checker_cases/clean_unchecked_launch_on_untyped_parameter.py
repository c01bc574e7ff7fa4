"""Clean twin of e0133_unchecked_launch_on_untyped_parameter: the helper taking the kernel as a parameter typed
`Any` opens its own `with simt.unsafe():` around `launch_unchecked`."""

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
    with simt.unsafe():
        kernel.launch_unchecked(config, stream, *args)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    x = sk.zeros(32, f32, stream)
    y = sk.zeros(32, f32, stream)
    config = simt.LaunchConfig1D.for_len(32, block=32)
    with simt.unsafe():
        raw_launch(scale, config, stream, x, y, 2.0)
    with simt.unsafe():
        raw_launch(scale, config, stream, x, y, 3.0)
