"""Views a `@staticmethod` returns (`self.lanes(packed, segs)`, `Layout.lanes(packed, segs)`) are views of the
caller's buffer with the bounds the method computes: the second lane starts one element early, so it overlaps the
first, and passing both as two outputs of one launch writes one element twice.  The runtime raises at the launch."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HEADER = 1


@simt.kernel
@simt.launch_contract(block=32)
def top2(vals: Slice[f32], first: DisjointSlice[f32], second: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := first.get_mut(idx)) is not None:
        o.set(vals[i])
    if (o2 := second.get_mut(thread.index_1d())) is not None:
        o2.set(vals[i])


class Layout:
    @staticmethod
    def lanes(packed: sk.DeviceBuffer[f32], segs: int) -> tuple[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32]]:
        first = packed.view(HEADER, HEADER + segs)
        second = packed.view(segs, HEADER + 2 * segs)
        return first, second

    def run(self, dev: sk.Device, s: sk.Stream, vals: sk.DeviceBuffer[f32], segs: int) -> None:
        packed = sk.zeros(HEADER + 2 * segs, f32, s)
        first, second = self.lanes(packed, segs)
        prepared = top2.prepare(simt.LaunchConfig1D.for_len(segs, block=32), dev)
        top2.launch(prepared, s, vals, first, second)  # expect: E0499


def on_the_class(dev: sk.Device, s: sk.Stream, vals: sk.DeviceBuffer[f32], segs: int) -> None:
    packed = sk.zeros(HEADER + 2 * segs, f32, s)
    first, second = Layout.lanes(packed, segs)
    prepared = top2.prepare(simt.LaunchConfig1D.for_len(segs, block=32), dev)
    top2.launch(prepared, s, vals, first, second)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    s = dev.new_stream()
    vals = sk.zeros(32, f32, s)
    Layout().run(dev, s, vals, 32)
    on_the_class(dev, s, vals, 32)
