"""A pool method that gives one of its own buffers or, when it has none, a new one (`return bucket.pop() if
bucket else sk.zeros(...)`): both arms are values the caller cannot name, so a launch reading the argument and
writing what the pool gave is fine."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(fine: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(0.5 * fine[i])


class ScratchPool:
    def __init__(self, sizes: list[int], stream: sk.Stream) -> None:
        self.stream = stream
        self.free = {n: [sk.zeros(n, f32, stream)] for n in sizes}

    def acquire(self, like: sk.DeviceBuffer) -> sk.DeviceBuffer:
        bucket = self.free.get(len(like), [])
        return bucket.pop() if bucket else sk.zeros(len(like), f32, self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    pool = ScratchPool([128], stream)
    level = sk.zeros(64, f32, stream)
    tmp = pool.acquire(level)
    smooth.launch(smooth.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev), stream, level, tmp)


if __name__ == "__main__":
    main()
