"""A workspace pool hands out scratch buffers by tag and size and counts its hits in the lookup's `else:`.  The
packed input and the activations are asked for under two tags, so they are two buffers, and the launch reading
one and writing the other is clean."""

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
    by_key: dict[tuple[str, int], sk.DeviceBuffer] = field(default_factory=dict)
    hits: int = 0

    def acquire(self, tag: str, n: int) -> sk.DeviceBuffer:
        buf = self.by_key.get((tag, n))
        if buf is None:
            buf = sk.zeros(n, f32, self.stream)
            self.by_key[(tag, n)] = buf
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
    scale.launch(prepared, stream, packed, activations)
    print(activations.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
