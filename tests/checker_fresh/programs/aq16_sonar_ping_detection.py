# fresh-expect: clean
# fresh-note: Active sonar matched filter plus CFAR detector over pings from a generator, with a `PlanCache` keyed by (kernel, length) so each kernel launches with its own prepared launch (clean twin of the hearing-aid plan cache).
"""Active sonar: matched filtering of echo returns against the transmitted chirp, then a CFAR-style detector.

Pings stream in from a generator; both kernels run once per ping.  Prepared launches are cached per
(kernel, length), so each kernel gets its own validated launch.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128
TAPS = 48
GUARD, TRAIN = 4, 16


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(echo) >= len(power) + 48",))
def matched_filter(echo: Slice[f32], chirp: Slice[f32], power: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    r = idx.get()
    acc = f32(0.0)
    for k in range(TAPS):
        acc += echo[r + k] * chirp[k]
    if (p := power.get_mut(idx)) is not None:
        p.set(acc * acc)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def cfar(power: Slice[f32], detect: DisjointSlice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    r = idx.get()
    noise = f32(0.0)
    count = 0
    for k in range(GUARD, GUARD + TRAIN):
        if r - k >= 0:
            noise += power[r - k]
            count += 1
        if r + k < len(power):
            noise += power[r + k]
            count += 1
    if (d := detect.get_mut(idx)) is not None:
        d.set(f32(1.0) if power[r] > factor * noise / f32(max(count, 1)) else f32(0.0))


class PlanCache:
    def __init__(self, device: sk.Device) -> None:
        self.device = device
        self._plans: dict[tuple[object, int], simt.PreparedLaunch] = {}
        self.misses = 0

    def get(self, kernel: simt.SimtKernel, n: int) -> simt.PreparedLaunch:
        key = (kernel, n)
        if key not in self._plans:
            self.misses += 1
            self._plans[key] = kernel.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), self.device)
        return self._plans[key]


def pings(rng: np.random.Generator, chirp: np.ndarray, count: int, bins: int) -> Iterator[tuple[int, np.ndarray]]:
    for ping in range(count):
        echo = rng.normal(0.0, 0.3, bins + TAPS)
        target = 300 + 40 * ping
        echo[target : target + TAPS] += 0.8 * chirp
        yield target, echo.astype(np.float32)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    bins = 1024
    t = np.arange(TAPS) / TAPS
    chirp_host = np.sin(2 * np.pi * (5 * t + 10 * t * t)).astype(np.float32)
    chirp = sk.to_device(chirp_host, stream)
    plans = PlanCache(device)
    power = sk.zeros(bins, f32, stream)
    detect = sk.zeros(bins, f32, stream)
    for target, echo_host in pings(np.random.default_rng(31), chirp_host, 4, bins):
        echo = sk.to_device(echo_host, stream)
        matched_filter.launch(plans.get(matched_filter, bins), stream, echo, chirp, power)
        cfar.launch(plans.get(cfar, bins), stream, power, detect, 12.0)
        hits = np.flatnonzero(detect.to_numpy(stream))
        print(f"target at bin {target}: detections {hits[:6].tolist()}")
    print(f"prepared {plans.misses} launches")


if __name__ == "__main__":
    main()
