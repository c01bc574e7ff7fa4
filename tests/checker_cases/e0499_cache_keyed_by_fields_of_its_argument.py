"""A hand-written cache keyed by fields of the object it is given (`key = (spec.dtype.__name__, groups)`): two
calls with specs that differ only in a field the key leaves out (`AccSpec("sum", f32)`, `AccSpec("count", f32)`)
get the one kept buffer, so the launch gets it as two outputs.  The runtime raises at the launch."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def sum_and_count(vals: Slice[f32], sums: DisjointSlice[f32], counts: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (s := sums.get_mut(idx)) is not None:
        s.set(vals[i])
    if (c := counts.get_mut(thread.index_1d())) is not None:
        c.set(f32(1.0))


@dataclass(frozen=True)
class AccSpec:
    name: str
    dtype: type


class Arena:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._slots: dict[tuple[str, int], sk.DeviceBuffer[f32]] = {}

    def zeroed(self, spec: AccSpec, groups: int) -> sk.DeviceBuffer[f32]:
        key = (spec.dtype.__name__, groups)
        buf = self._slots.get(key)
        if buf is None:
            buf = sk.zeros(groups, f32, self.stream)
            self._slots[key] = buf
        return buf


def main() -> None:
    dev = sk.Device.cpu()
    s = dev.new_stream()
    arena = Arena(s)
    vals = sk.to_device(np.ones(N, np.float32), s)
    sums = arena.zeroed(AccSpec("sum", f32), N)
    counts = arena.zeroed(AccSpec("count", f32), N)
    prepared = sum_and_count.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    sum_and_count.launch(prepared, s, vals, sums, counts)  # expect: E0499
