# fresh-expect: E0499 at line 39
# fresh-note: found since: every item of a defaultdict(lambda: buf) nothing is stored into is the buffer its factory names (stdlib_flow.FACTORY_MAPPINGS, factory_body in both front ends)
"""Deinterleave a stereo stream into left and right channels, with output buffers created on demand."""
from collections import defaultdict

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def deinterleave(frames: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(left):
        l_val = frames[2 * i]
        r_val = frames[2 * i + 1]
        if (lo := left.get_mut(idx)) is not None:
            lo.set(l_val)
        idx2 = thread.index_1d()
        if (ro := right.get_mut(idx2)) is not None:
            ro.set(r_val)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 2048
    rng = np.random.default_rng(7)
    stereo = rng.standard_normal(2 * n).astype(np.float32)
    frames = sk.to_device(stereo, stream)
    channel_buffer = sk.zeros(n, f32, stream)
    channels: defaultdict[str, sk.DeviceBuffer] = defaultdict(lambda: channel_buffer)
    prep = deinterleave.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    deinterleave.launch(prep, stream, frames, channels["left"], channels["right"])
    left = channels["left"].to_numpy(stream)
    right = channels["right"].to_numpy(stream)
    np.testing.assert_array_equal(left, stereo[0::2])
    np.testing.assert_array_equal(right, stereo[1::2])
    print("left rms", float(np.sqrt((left**2).mean())), "right rms", float(np.sqrt((right**2).mean())))


if __name__ == "__main__":
    main()
