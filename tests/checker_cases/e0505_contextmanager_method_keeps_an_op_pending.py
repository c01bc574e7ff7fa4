"""A `@contextlib.contextmanager` *method* keeps a `launch_async` op pending across its `yield` (synced in its
`finally`): inside the `with` block the yielded section's `h` is still borrowed, and a helper's tile launch moving
it is E0505, as the runtime raises."""

import contextlib
from collections.abc import Iterator
import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=32)
def wick(moisture: Slice[f32], absorbed: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := absorbed.get_mut(idx)) is not None:
        o.set(moisture[i] * 0.5)


class Section:
    def __init__(self, stream: sk.Stream) -> None:
        self.h = sk.to_device(np.ones(64, np.float32), stream)
        self.load = sk.zeros(64, f32, stream)
        self.notes: list[str] = []


@tile.kernel
def halve(out: Partition[f32], h: Tensor[f32]) -> None:
    out.store(tile.load_like(h, out) * 0.5)


class Surveyor:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = wick.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)

    @contextlib.contextmanager
    def survey(self, section: Section) -> Iterator[Section]:
        pending = wick.launch_async(self.prepared, section.h, section.load)
        try:
            yield section
        finally:
            pending.sync_on(self.stream)
        section.notes.append(f"{section.load.to_numpy(self.stream).max():.2f}")


def plan(h: sk.DeviceBuffer, stream: sk.Stream) -> float:
    out = tile.zeros((64,), f32).partition((32,))
    out, _ = halve(out, h).sync_on(stream)  # expect: E0505
    return float(out.unpartition().to_numpy(stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    surveyor = Surveyor(dev, stream)
    sec = Section(stream)
    with surveyor.survey(sec) as s:
        print(plan(s.h, stream))
    print(sec.notes)


if __name__ == "__main__":
    main()
