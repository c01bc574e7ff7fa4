# fresh-expect: clean
# fresh-note: Railway knock-on delay propagation: the SIMT punctuality report lends the current delay tensor through a property, so every report borrows the tensor the last tile step handed back.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, Slice, thread
from safekernels.tile import Partition, Tensor

T = 32  # trains per tile block
BLOCK = 128
BIN_MINUTES = 5.0
BINS = 6  # on time, 5-10, 10-15, ..., 25+


@tile.kernel
def propagate(out: Partition[f32], delay: Tensor[f32], slack: Tensor[f32], headway: f32) -> None:
    d = tile.load_like(delay, out)
    s = tile.load_like(slack, out)
    ids = tile.iota(T, i32) + tile.bid(0) * T
    ahead = tile.gather(delay, ids - 1, mask=ids > 0, other=0.0)  # the train in front on the same track
    out.store(tile.maximum(tile.maximum(d - s, ahead - headway), 0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def punctuality(delay: Slice[f32], bins: AtomicSlice[i32], width: f32) -> None:
    i = thread.index_1d().get()
    if i < len(delay):
        b = i32(delay[i] / width)
        bins.fetch_add(min(b, i32(BINS - 1)), i32(1))


@dataclass(frozen=True)
class Section:
    name: str
    headway: float  # minutes between consecutive paths at the section's bottleneck


class DelayModel:
    def __init__(self, initial: np.ndarray, slack: np.ndarray, device: sk.Device) -> None:
        self.stream = device.new_stream()
        self.n = len(initial)
        self.delays = tile.from_numpy(initial.astype(np.float32)).sync_on(self.stream)
        self.slack = tile.from_numpy(slack.astype(np.float32)).shared()
        self.kpi_launch = punctuality.prepare(simt.LaunchConfig1D.for_len(self.n, block=BLOCK), device)

    @property
    def lent(self) -> sk.DeviceBuffer:
        return self.delays.as_buffer()

    def step(self, section: Section) -> None:
        out = tile.zeros((self.n,), f32).partition((T,))
        out, _, _, _ = propagate(out, self.delays, self.slack, section.headway).sync_on(self.stream)
        self.delays = out.unpartition()

    def histogram(self) -> np.ndarray:
        bins = sk.zeros(BINS, i32, self.stream)
        punctuality.launch(self.kpi_launch, self.stream, self.lent, bins, BIN_MINUTES)
        return bins.to_numpy(self.stream)

    def snapshot(self) -> np.ndarray:
        return self.delays.to_numpy(self.stream)


def reference_step(d: np.ndarray, slack: np.ndarray, headway: float) -> np.ndarray:
    ahead = np.concatenate([[0.0], d[:-1]])
    return np.maximum(np.maximum(d - slack, ahead - headway), 0.0)


def main() -> None:
    rng = np.random.default_rng(8)
    n = 96
    initial = np.where(rng.random(n) < 0.15, rng.exponential(12.0, n), 0.0)
    slack = rng.uniform(0.5, 2.0, n)
    route = [Section("Ashford", 4.0), Section("Tonbridge", 3.0), Section("Sevenoaks", 2.5), Section("London", 2.0)]
    model = DelayModel(initial, slack, sk.Device.cpu())
    expected = initial.astype(np.float32)
    report = {}
    for section in route:
        report[section.name] = model.histogram()
        model.step(section)
        expected = reference_step(expected, slack.astype(np.float32), section.headway)
    np.testing.assert_allclose(model.snapshot(), expected, rtol=1e-5, atol=1e-5)
    for name, hist in report.items():
        print(f"{name:>10}: on time {hist[0]:3d}  late {hist[1:].sum():3d}  (25+ min: {hist[-1]})")


if __name__ == "__main__":
    main()
