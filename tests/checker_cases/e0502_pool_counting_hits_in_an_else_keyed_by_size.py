"""A workspace pool hands out scratch buffers by size only (the tag just feeds a log) and counts its hits in the
lookup's `else:`.  The packed input and the activations are asked for at one size, so they are one buffer, and
the launch reading one and writing the other gets it as both (E0502, as the runtime's `BorrowError` says)."""

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def scale(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * 2.0)


@dataclass
class Pool:
    stream: sk.Stream
    by_size: dict[int, sk.DeviceBuffer] = field(default_factory=dict)
    hits: int = 0

    def acquire(self, tag: str, n: int) -> sk.DeviceBuffer:
        buf = self.by_size.get(n)
        if buf is None:
            buf = sk.zeros(n, f32, self.stream)
            self.by_size[n] = buf
        else:
            self.hits += 1
        return buf


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    pool = Pool(stream)
    packed = pool.acquire("packed", N)
    packed.copy_from_numpy(np.ones(N, np.float32), stream)
    activations = pool.acquire("activations", N)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    scale.launch(prepared, stream, packed, activations)  # expect: E0502
    print(activations.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
