"""Every item of `d = defaultdict(lambda: buf)` that nothing was stored into is the buffer the factory returns: the
first read of a key stores `buf` under it, so `d["src"]` and `d["dst"]` are one buffer and a launch reading one and
writing the other is E0502 (the runtime raises `AliasingError` at the marked line)."""

from collections import defaultdict

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    shared = sk.to_device(np.ones(n, np.float32), stream)
    bufs: defaultdict[str, sk.DeviceBuffer] = defaultdict(lambda: shared)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    try:
        scale.launch(prepared, stream, bufs["src"], bufs["dst"], 0.9)  # expect: E0502
    except sk.AliasingError as err:
        print("AliasingError:", err)


if __name__ == "__main__":
    main()
