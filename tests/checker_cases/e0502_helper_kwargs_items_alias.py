"""A helper of this module takes its buffers by keyword into `**bufs` and launches with `bufs["src"]` as input and
`bufs["dst"]` as output; the caller passes one buffer as both (`src=out, dst=out`): each item of the keyword dict is
the buffer the caller passed by that keyword, so the launch inside the helper aliases, reported at the call."""

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


def run_scale(prepared: PreparedLaunch[Any], stream: sk.Stream, **bufs: sk.DeviceBuffer[f32]) -> None:
    scale.launch(prepared, stream, bufs["src"], bufs["dst"])  # expect: E0502


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    out = sk.zeros(64, f32, stream)
    p = scale.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    run_scale(p, stream, src=a, dst=out)
    run_scale(p, stream, src=out, dst=out)


if __name__ == "__main__":
    main()
