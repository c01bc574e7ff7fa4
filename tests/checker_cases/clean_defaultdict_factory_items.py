"""The clean twin of `e0502_defaultdict_factory_items`: a factory that makes a new buffer per key
(`defaultdict(lambda: sk.zeros(n, f32, stream))`) gives two buffers for two keys, and one key read twice is the
buffer stored under it the first time."""

from collections import defaultdict

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
    bufs: defaultdict[str, sk.DeviceBuffer] = defaultdict(lambda: sk.zeros(n, f32, stream))
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    scale.launch(prepared, stream, bufs["src"], bufs["dst"], 0.9)
    print(bufs["dst"].to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
