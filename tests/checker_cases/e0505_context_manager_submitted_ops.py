"""A class-based context manager whose `submit` method stores `launch_async` ops in `self.ops` and whose
`__exit__` runs them: the `with` statement holds the object until `__exit__` has run, so the stored ops keep their
loans to the end of the block even where the body never reads the object again.  Moving a buffer a submitted op
writes inside the block is E0505 (the runtime refuses the move); after the block, or after a method that drains
`self.ops` (`flush`), it is fine (the clean twin)."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=64)
def square(src: Slice[f32], out: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := out.get_mut(thread.index_1d())) is not None:
        o.set(src[i] * src[i])


@tile.kernel
def clamp(z: Partition[f32], floor: f32) -> None:
    z.store(tile.maximum(z.load(), floor))


class Overlap:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.ops: list[sk.DeviceOp] = []

    def __enter__(self) -> Overlap:
        return self

    def submit(self, kernel: simt.SimtKernel, prepared: simt.PreparedLaunch, *buffers: sk.DeviceBuffer) -> None:
        self.ops.append(kernel.launch_async(prepared, *buffers))

    def flush(self) -> None:
        while self.ops:
            self.ops.pop(0).sync_on(self.stream)

    def __exit__(self, *exc: object) -> None:
        self.flush()


def inside_block(src: sk.DeviceBuffer, prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    power = sk.zeros(64, f32, stream)
    with Overlap(stream) as ov:
        ov.submit(square, prepared, src, power)
        clamped, _ = clamp(power.partition((32,)), 1e-3).sync_on(stream)  # expect: E0505
    print(clamped.unpartition().to_numpy(stream)[:2])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(64, dtype=np.float32), stream)
    prepared = square.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    try:
        inside_block(src, prepared, stream)
    except sk.BorrowError as err:
        print("BorrowError:", err)


if __name__ == "__main__":
    main()
