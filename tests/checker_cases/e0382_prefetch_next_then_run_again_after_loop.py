"""The twin of `clean_prefetch_next_unless_last_iteration`: the last iteration starts no op, so after the loop
`pending` is the op the last iteration already ran, and running it again is a use after move."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def double(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


def pipeline(prepared: simt.PreparedLaunch, stream: sk.Stream, items: list[sk.DeviceBuffer]) -> float:
    outs = [sk.zeros(64, f32, stream) for _ in items]
    pending = double.launch_async(prepared, items[0], outs[0])
    total = 0.0
    for i in range(len(items)):
        pending.sync_on(stream)
        if i + 1 < len(items):
            pending = double.launch_async(prepared, items[i + 1], outs[i + 1])
        total += float(outs[i].to_numpy(stream).sum())
    pending.sync_on(stream)  # expect: E0382
    return total


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = double.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    items = [sk.to_device(np.full(64, float(k), np.float32), stream) for k in range(3)]
    print(pipeline(prepared, stream, items))


if __name__ == "__main__":
    main()
