# fresh-expect: clean
# fresh-note: Same FIR filter bank, but for IN_PLACE specs the `sink` property hands out a separate spare buffer that `apply` swaps with the signal after the launch, so input and output never alias.
"""A small FIR filter bank for a mono recording.

Each filter is described by a `FirSpec` (name, taps, where its result goes).  The bank keeps the signal on the
device and runs one SIMT FIR launch per spec.  A spec marked `Placement.IN_PLACE` asks the bank to overwrite the
signal itself: the `sink` property then hands out a spare buffer, and `apply` swaps it with the signal after the
launch, so the launch never reads and writes the same memory.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64


class Placement(enum.Enum):
    SEPARATE = "separate"
    IN_PLACE = "in_place"


@dataclass(frozen=True)
class FirSpec:
    name: str
    taps: tuple[float, ...]
    placement: Placement = Placement.SEPARATE
    tags: tuple[str, ...] = field(default=())


@simt.kernel
@simt.launch_contract(block=BLOCK)
def fir(signal: Slice[f32], taps: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        for k in range(len(taps)):
            if i >= k:
                acc += taps[k] * signal[i - k]
        o.set(acc)


class FilterBank:
    """Runs a list of FIR specs over one device-resident signal."""

    def __init__(self, dev: sk.Device, stream: sk.Stream, samples: np.ndarray) -> None:
        self.dev = dev
        self.stream = stream
        self.n = int(samples.shape[0])
        self.signal = sk.to_device(samples.astype(np.float32), stream)
        self._out = sk.zeros(self.n, f32, stream)
        self._spare = sk.zeros(self.n, f32, stream)
        self._taps: dict[str, sk.DeviceBuffer] = {}
        self.placement = Placement.SEPARATE
        self.prepared = fir.prepare(simt.LaunchConfig1D.for_len(self.n, block=BLOCK), dev)

    @property
    def sink(self) -> sk.DeviceBuffer:
        # in-place specs write a spare buffer that replaces the signal after the launch
        if self.placement is Placement.IN_PLACE:
            return self._spare
        return self._out

    def taps_for(self, spec: FirSpec) -> sk.DeviceBuffer:
        if spec.name not in self._taps:
            self._taps[spec.name] = sk.to_device(np.asarray(spec.taps, dtype=np.float32), self.stream)
        return self._taps[spec.name]

    def apply(self, spec: FirSpec) -> np.ndarray:
        self.placement = spec.placement
        taps = self.taps_for(spec)
        fir.launch(self.prepared, self.stream, self.signal, taps, self.sink)
        result = self.sink.to_numpy(self.stream)
        if self.placement is Placement.IN_PLACE:
            self.signal, self._spare = self._spare, self.signal
        return result


def reference_fir(x: np.ndarray, taps: tuple[float, ...]) -> np.ndarray:
    return np.convolve(x, np.asarray(taps, np.float32))[: x.shape[0]].astype(np.float32)


def make_specs() -> list[FirSpec]:
    return [
        FirSpec("smooth3", (1 / 3, 1 / 3, 1 / 3), tags=("lowpass",)),
        FirSpec("diff", (1.0, -1.0), tags=("highpass",)),
        FirSpec("dc_block", (0.5, -0.5), Placement.IN_PLACE, tags=("highpass", "destructive")),
    ]


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.arange(512, dtype=np.float32)
    samples = (np.sin(t * 0.05) + 0.1 * np.cos(t * 0.9) + 0.25).astype(np.float32)
    bank = FilterBank(dev, stream, samples)
    current = samples.copy()
    for spec in make_specs():
        got = bank.apply(spec)
        want = reference_fir(current, spec.taps)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        if spec.placement is Placement.IN_PLACE:
            current = want
        print(f"{spec.name:>9}: rms={float(np.sqrt(np.mean(got**2))):.4f} tags={','.join(spec.tags)}")
    print("filter bank done")


if __name__ == "__main__":
    main()
