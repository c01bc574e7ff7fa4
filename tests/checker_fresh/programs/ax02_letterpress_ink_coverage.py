# fresh-expect: clean
# fresh-note: Simulates ink spreading over a letterpress forme with ping-pong buffers from a roller context manager and splits coverage into two disjoint halves; every launch reads and writes distinct memory.
"""Letterpress ink coverage: how much ink each column of a locked-up forme carries after N roller passes."""
from __future__ import annotations

import functools
from functools import cached_property

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=BLOCK)
def ink_spread(plate: Slice[f32], prev: Slice[f32], out: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        left = prev[max(i - 1, 0)]
        right = prev[min(i + 1, len(prev) - 1)]
        o.set(plate[i] * (0.5 * prev[i] + 0.25 * (left + right)) + gain * plate[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def split_halves(src: Slice[f32], left: DisjointSlice[f32], right: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := left.get_mut(idx)) is not None:
        lo.set(src[i])
    idx2 = thread.index_1d()
    j = idx2.get()
    if (hi := right.get_mut(idx2)) is not None:
        hi.set(src[j + len(left)])


class InkRoller:
    """Lends a scratch buffer the size of the forme for the duration of a run."""

    def __init__(self, n: int, stream: sk.Stream) -> None:
        self.n, self.stream = n, stream
        self.scratch: sk.DeviceBuffer | None = None

    def __enter__(self) -> sk.DeviceBuffer:
        self.scratch = sk.zeros(self.n, f32, self.stream)
        return self.scratch

    def __exit__(self, *exc: object) -> None:
        self.scratch = None


class Forme:
    def __init__(self, plate: np.ndarray, device: sk.Device) -> None:
        self.device = device
        self.stream = device.new_stream()
        self.n = plate.size
        self.plate = sk.to_device(plate.astype(np.float32), self.stream)
        self.coverage = sk.to_device(np.full(self.n, 0.2, np.float32), self.stream)

    @classmethod
    def from_type_height(cls, columns: int, device: sk.Device, seed: int = 7) -> "Forme":
        rng = np.random.default_rng(seed)
        relief = (rng.random(columns) > 0.35).astype(np.float32)
        return cls(relief, device)

    @cached_property
    def spread_launch(self) -> simt.PreparedLaunch:
        return ink_spread.prepare(simt.LaunchConfig1D.for_len(self.n, block=BLOCK), self.device)

    @cached_property
    def split_launch(self) -> simt.PreparedLaunch:
        return split_halves.prepare(simt.LaunchConfig1D.for_len(self.n // 2, block=BLOCK), self.device)

    def roll(self, passes: int, gain: float) -> sk.DeviceBuffer:
        step = functools.partial(ink_spread.launch, self.spread_launch, self.stream)
        with InkRoller(self.n, self.stream) as scratch:
            current, nxt = self.coverage, scratch
            for _ in range(passes):
                step(self.plate, current, nxt, gain)
                current, nxt = nxt, current
            # self-blend: the plate and coverage are read twice, written once elsewhere
            step(current, current, nxt, 0.0)
            final = sk.to_device(nxt.to_numpy(self.stream), self.stream)
        self.coverage = final
        return final

    def halves(self) -> tuple[np.ndarray, np.ndarray]:
        both = sk.zeros(self.n, f32, self.stream)
        left, right = both.split_at(self.n // 2)
        split_halves.launch(self.split_launch, self.stream, self.coverage, left, right)
        host = both.to_numpy(self.stream)
        return host[: self.n // 2], host[self.n // 2:]


def report(forme: Forme, passes: int) -> None:
    forme.roll(passes, gain=0.1)
    left, right = forme.halves()
    print(f"{passes} passes: chase left {left.mean():.3f}, chase right {right.mean():.3f}")


def main() -> None:
    dev = sk.Device.default()
    forme = Forme.from_type_height(256, dev)
    for passes in (1, 3):
        report(forme, passes)


if __name__ == "__main__":
    main()
