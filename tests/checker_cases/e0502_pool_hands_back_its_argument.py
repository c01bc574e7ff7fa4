"""A pool method that gives one of its own buffers or, when it has none, its argument (`return bucket.pop() if
bucket else like`): the item it pops is a value the checker cannot name, read as new, but the other arm is the
caller's argument, so `tmp = pool.acquire(level)` may be `level`, and a launch reading `level` and writing `tmp` is
E0502 (the runtime raises for a length the pool has no buffer of)."""

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
        self.free = {n: [sk.zeros(n, f32, stream)] for n in sizes}

    def acquire(self, like: sk.DeviceBuffer) -> sk.DeviceBuffer:
        bucket = self.free.get(len(like), [])
        return bucket.pop() if bucket else like


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    pool = ScratchPool([128], stream)
    level = sk.zeros(64, f32, stream)
    tmp = pool.acquire(level)
    smooth.launch(smooth.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev), stream, level, tmp)  # expect: E0502


if __name__ == "__main__":
    main()
