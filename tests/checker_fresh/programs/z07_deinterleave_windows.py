# fresh-expect: E0499 at line 52
# fresh-note: found since: an item taken from a generator function of the module whose every yield gives a view of a parameter (next, for, an unpacking through itertools.islice) is a view of the caller's argument
"""Split an interleaved stereo stream (L R L R ...) into one planar buffer holding the
left channel in its first half and the right channel in its second half."""
from __future__ import annotations

import itertools
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

FRAMES = 512
HALO = 4  # the smoothing stencil reads this many neighbours on each side


@simt.kernel
@simt.launch_contract(block=128)
def deinterleave(src: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := left.get_mut(idx)) is not None:
        lo.set(src[2 * i])
    if (hi := right.get_mut(thread.index_1d())) is not None:
        hi.set(src[2 * i + 1])


def windows(buf: sk.DeviceBuffer, size: int, halo: int = HALO) -> Iterator[sk.DeviceBuffer]:
    """Consecutive views of `size` elements; neighbours share `halo` elements for stencils."""
    step = size - halo
    for start in range(0, len(buf) - size + 1, step):
        yield buf.view(start, start + size)


def interleaved(frames: int) -> np.ndarray:
    t = np.arange(frames, dtype=np.float32)
    return np.stack([np.sin(t / 10), np.cos(t / 10)], axis=1).reshape(-1).astype(np.float32)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    src = sk.to_device(interleaved(FRAMES), stream)
    planar = sk.zeros(2 * FRAMES, f32, stream)
    prepared = deinterleave.prepare(simt.LaunchConfig1D.for_len(FRAMES, block=128), dev)

    left, right = itertools.islice(windows(planar, FRAMES), 2)
    deinterleave.launch(prepared, stream, src, left, right)

    host = planar.to_numpy(stream)
    print("left[:3] =", host[:3], "right[:3] =", host[FRAMES:FRAMES + 3])


if __name__ == "__main__":
    main()
