# fresh-expect: clean
# fresh-note: Clean twin: the @simt.device block_sum helper opens its own `with simt.unsafe():` block around its shared-array accesses, since unsafe is lexical and does not carry in from the kernel.
"""Camera-style exposure metering in the SIMT track: each thread block sums the luminance of one zone of the frame
in shared memory, and the host weights the zone means by a metering mode to pick an exposure value."""

from __future__ import annotations

import enum
import functools
import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 64


@simt.device
def block_sum(scratch, t, v):
    with simt.unsafe():  # t < BLOCK and t + stride < BLOCK: every index is in the array
        scratch[t] = v
        thread.sync_threads()
        stride = BLOCK // 2
        while stride > 0:
            if t < stride:
                scratch[t] = scratch[t] + scratch[t + stride]
            thread.sync_threads()
            stride = stride // 2
        total = scratch[0]
    return total


@simt.kernel
@simt.launch_contract(block=BLOCK)
def zone_meter(lum: Slice[f32], zones: AtomicSlice[f32]) -> None:
    t = thread.thread_idx_x()
    i = thread.index_1d().get()
    v = f32(0.0)
    if i < len(lum):
        v = lum[i]
    with simt.unsafe():  # one scratch slot per thread of the block
        scratch = simt.shared_array(f32, BLOCK)
        total = block_sum(scratch, t, v)
    if t == 0:
        zones.fetch_add(thread.block_idx_x(), total / f32(BLOCK))


class MeteringMode(enum.Enum):
    AVERAGE = "average"
    CENTER_WEIGHTED = "center"
    SPOT = "spot"


def zone_weight(mode: MeteringMode, zone: int, count: int) -> float:
    distance = abs(zone - (count - 1) / 2) / max(count / 2, 1)
    match mode:
        case MeteringMode.AVERAGE:
            return 1.0
        case MeteringMode.CENTER_WEIGHTED:
            return math.exp(-4.0 * distance * distance)
        case MeteringMode.SPOT:
            return 1.0 if distance < 0.2 else 0.0
    raise ValueError(mode)


@dataclass
class Meter:
    device: sk.Device
    mode: MeteringMode = MeteringMode.CENTER_WEIGHTED
    target: float = 0.18

    def __post_init__(self) -> None:
        self.stream = self.device.new_stream()
        self.readings: list[float] = []

    def zones(self, frame: np.ndarray) -> np.ndarray:
        flat = frame.reshape(-1).astype(np.float32)
        count = math.ceil(flat.size / BLOCK)
        lum = sk.to_device(flat, self.stream)
        out = sk.zeros(count, f32, self.stream)
        prep = zone_meter.prepare(simt.LaunchConfig1D.for_len(flat.size, block=BLOCK), self.device)
        zone_meter.launch(prep, self.stream, lum, out)
        return out.to_numpy(self.stream)

    def exposure_value(self, frame: np.ndarray) -> float:
        means = self.zones(frame)
        weight = functools.partial(zone_weight, self.mode, count=len(means))
        weights = np.array([weight(k) for k in range(len(means))])
        metered = float((weights * means).sum() / weights.sum())
        self.readings.append(metered)
        return math.log2(max(metered, 1e-6) / self.target)


def main() -> None:
    rng = np.random.default_rng(9)
    frame = rng.random((16, 48)).astype(np.float32) * 0.5
    frame[6:10, 20:28] = 4.0  # a bright subject in the middle
    meter = Meter(sk.Device.default())
    ev = meter.exposure_value(frame)
    assert ev > 0.0, ev
    zone_means = meter.zones(frame)
    np.testing.assert_allclose(zone_means.mean(), frame.mean(), rtol=1e-4)
    print(f"{len(zone_means)} zones, metered {meter.readings[-1]:.3f}, exposure compensation {ev:+.2f} EV")


if __name__ == "__main__":
    main()
