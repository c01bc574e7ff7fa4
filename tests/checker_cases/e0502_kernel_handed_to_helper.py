"""A helper of this module is handed the kernel it launches (`apply(scale, ...)` of `def apply(kernel, ...)`): in
the helper, `kernel.launch(...)` launches that kernel, with its parameter modes, so the caller passing one buffer as
the kernel's input and its output is reported at the call."""

from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, PreparedLaunch, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def scale(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(2.0 * src[i])


def apply(kernel: Any, prepared: PreparedLaunch[Any], stream: sk.Stream, src: Any, dst: Any) -> None:
    kernel.launch(prepared, stream, src, dst)  # expect: E0502


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)
    p = scale.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    apply(scale, p, stream, a, out)
    apply(scale, p, stream, out, out)


if __name__ == "__main__":
    main()
