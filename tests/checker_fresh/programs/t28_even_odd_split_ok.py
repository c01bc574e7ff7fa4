# fresh-expect: clean
"""De-interleave a stereo signal into left and right channels, written to the two halves of one buffer."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def deinterleave(src: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (l_out := left.get_mut(idx)) is not None:
        l_out.set(src[2 * i])
    idx_r = thread.index_1d()
    if (r_out := right.get_mut(idx_r)) is not None:
        r_out.set(src[2 * i + 1])


def split_channels(samples: np.ndarray, dev, stream) -> tuple:
    frames = samples.size // 2
    src = sk.to_device(samples, stream)
    channels = sk.zeros(2 * frames, f32, stream)
    left, right = channels.split_at(frames)
    prep = deinterleave.prepare(simt.LaunchConfig1D.for_len(frames, block=128), dev)
    deinterleave.launch(prep, stream, src, left, right)
    host = channels.to_numpy(stream)
    return host[:frames], host[frames:]


if __name__ == "__main__":
    dev = sk.Device.cpu()
    stereo = np.arange(2048, dtype=np.float32)
    lch, rch = split_channels(stereo, dev, dev.new_stream())
    print(lch[:3], rch[:3])
