# fresh-expect: clean
# fresh-note: Twin of bn09: the @simt.device helper opens its own `with simt.unsafe():` block around the shared-array allocation and accesses, so the unsafe operations are lexically covered.
"""Histogram of daily returns for a risk report (SIMT track, shared memory + atomics).

Each block stages its threads' bin numbers in shared memory; the first BINS threads of the block count how many
of the staged bins equal their own bin id and add that count to the global histogram with one atomic each.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32, u32
from safekernels.simt import AtomicSlice, Slice, thread

BLOCK = 128
BINS = 16
LO = -0.05
HI = 0.05


@simt.device
def block_count(my_bin: i32, t: i32) -> i32:
    count = i32(0)
    with simt.unsafe():  # t < BLOCK and j < BLOCK: every index is inside the staging area
        staged = simt.shared_array(i32, BLOCK)
        staged[t] = my_bin
        thread.sync_threads()
        if t < BINS:
            for j in range(BLOCK):
                if staged[j] == t:
                    count += 1
    return count


@simt.kernel
@simt.launch_contract(block=BLOCK)
def return_hist(returns: Slice[f32], counts: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    t = thread.thread_idx_x()
    b = i32(-1)
    if i < len(returns):
        scaled = (returns[i] - LO) / (HI - LO) * BINS
        b = i32(min(max(scaled, 0.0), BINS - 1.0))
    c = block_count(b, t)
    if t < BINS and c > 0:
        counts.fetch_add(t, u32(c))


@dataclass(frozen=True)
class HistogramReport:
    counts: np.ndarray

    @cached_property
    def edges(self) -> np.ndarray:
        return np.linspace(LO, HI, BINS + 1)

    def mode_bucket(self) -> tuple[float, float]:
        k = int(np.argmax(self.counts))
        return float(self.edges[k]), float(self.edges[k + 1])

    def lines(self, width: int = 30):
        peak = max(self.counts.max(), 1)
        for lo, hi, c in zip(self.edges[:-1], self.edges[1:], self.counts):
            yield f"[{lo:+.3f}, {hi:+.3f}) {'#' * math.ceil(width * c / peak):<{width}} {c}"


class ReturnHistogram:
    def __init__(self, device: sk.Device) -> None:
        self.device = device
        self.stream = device.new_stream()

    @staticmethod
    def reference(returns: np.ndarray) -> np.ndarray:
        scaled = (returns.astype(np.float32) - np.float32(LO)) / np.float32(HI - LO) * np.float32(BINS)
        bins = np.clip(scaled, 0, BINS - 1).astype(np.int64)
        return np.bincount(bins, minlength=BINS)

    def compute(self, returns: np.ndarray) -> HistogramReport:
        values = sk.to_device(returns.astype(np.float32), self.stream)
        counts = sk.zeros(BINS, u32, self.stream)
        prepared = return_hist.prepare(simt.LaunchConfig1D.for_len(len(returns), block=BLOCK), self.device)
        return_hist.launch(prepared, self.stream, values, counts)
        return HistogramReport(counts.to_numpy(self.stream))


def main() -> None:
    rng = np.random.default_rng(21)
    returns = rng.standard_t(4, 600) * 0.01
    report = ReturnHistogram(sk.Device.cpu()).compute(returns)
    assert (report.counts == ReturnHistogram.reference(returns)).all()
    for line in report.lines():
        print(line)
    print("modal bucket:", report.mode_bucket())


if __name__ == "__main__":
    main()
