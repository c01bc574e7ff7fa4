"""The twin of `clean_bump_allocator_views`: the arena is reset between the two allocations, so the second view
is the same slice as the first, and the launch reads and writes one buffer region (E0502, as the runtime's
`AliasingError` says), in straight-line code and in a loop."""

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


class Arena:
    def __init__(self, capacity: int, stream: sk.Stream) -> None:
        self.buf = sk.zeros(capacity, f32, stream)
        self.top = 0

    def reset(self) -> None:
        self.top = 0

    def alloc(self, size: int) -> sk.DeviceBuffer:
        start = self.top
        if start + size > len(self.buf):
            raise MemoryError("arena exhausted")
        self.top += size
        return self.buf[start : start + size]


def pipeline(arena: Arena, prepared: simt.PreparedLaunch, stream: sk.Stream) -> float:
    src = arena.alloc(64)
    src.copy_from_numpy(np.ones(64, np.float32), stream)
    arena.reset()
    out = arena.alloc(64)
    double.launch(prepared, stream, src, out)  # expect: E0502
    return float(out.to_numpy(stream).sum())


def batches(arena: Arena, prepared: simt.PreparedLaunch, stream: sk.Stream) -> float:
    total = 0.0
    for _ in range(3):
        src = arena.alloc(64)
        arena.reset()
        dst = arena.alloc(64)
        double.launch(prepared, stream, src, dst)  # expect: E0502
        total += float(dst.to_numpy(stream).sum())
    return total


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = double.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    arena = Arena(1024, stream)
    print(pipeline(arena, prepared, stream))


if __name__ == "__main__":
    main()
