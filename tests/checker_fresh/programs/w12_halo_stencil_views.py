# fresh-expect: E0502 at line 32
"""A 1-D smoothing pass split into chunks with a halo, run in place to save a buffer."""
import itertools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HALO = 2


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[i] + src[i + 1] + src[i + 2]) / f32(3.0))


def chunk_bounds(n: int, chunks: int) -> list[int]:
    step = (n - HALO) // chunks
    return list(itertools.accumulate([HALO] + [step] * chunks))


def smooth_chunks(dev: sk.Device, stream: sk.Stream, field: sk.DeviceBuffer[f32]) -> None:
    for lo, hi in itertools.pairwise(chunk_bounds(len(field), 4)):
        prep = smooth.prepare(simt.LaunchConfig1D.for_len(hi - lo, block=64), dev)
        smooth.launch(prep, stream, field[lo - HALO:hi], field[lo - HALO:hi - HALO])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    field = sk.to_device(np.arange(258, dtype=np.float32), stream)
    smooth_chunks(dev, stream, field)
    print(field.to_numpy(stream)[:6])


if __name__ == "__main__":
    main()
