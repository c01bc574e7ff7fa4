"""The clean twin of `e0502_helper_returns_a_buffer_and_its_view`: the helper returns a buffer and two views of
its literal halves (`return buf, buf.view(0, 64), buf.view(64, 128)`), and the caller's launches read one half
and write the other, disjoint memory, in both directions."""

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * 0.5)


def halves(stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer, sk.DeviceBuffer]:
    buf = sk.to_device(np.ones(128, np.float32), stream)
    return buf, buf.view(0, 64), buf.view(64, 128)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = smooth.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    whole, lo, hi = halves(stream)
    smooth.launch(prep, stream, lo, hi)
    smooth.launch(prep, stream, hi, lo)
    print(whole.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
