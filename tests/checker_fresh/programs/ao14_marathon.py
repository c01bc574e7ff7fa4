# fresh-expect: clean
# fresh-note: Marathon split paces twin: the unsafe block sits lexically in launch_fast() around launch_unchecked itself, so the unchecked launch is covered.
"""Marathon timing: per-runner pace for every 5 km split, launched many times per race, so skip validation."""
from dataclasses import dataclass
from typing import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 256
SPLIT_KM = 5.0
CHECKPOINTS = (5, 10, 15, 20, 25, 30, 35, 40)


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(prev_s) >= len(pace)", "len(now_s) >= len(pace)"))
def split_pace(prev_s: Slice[f32], now_s: Slice[f32], pace: DisjointSlice[f32], km: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := pace.get_mut(idx)) is not None:
        out.set((now_s[i] - prev_s[i]) / km)  # seconds per km


@dataclass
class Runner:
    bib: int
    target_pace: float  # s/km


def chip_reads(runners: list[Runner], rng: np.random.Generator) -> Iterator[tuple[int, np.ndarray]]:
    """Yield (km, cumulative chip time in seconds) at every timing mat."""
    target = np.array([r.target_pace for r in runners], dtype=np.float32)
    elapsed = np.zeros(len(runners), dtype=np.float32)
    for km in CHECKPOINTS:
        fade = 1.0 + 0.012 * max(km - 30, 0)  # the wall
        elapsed = elapsed + SPLIT_KM * target * fade * rng.normal(1.0, 0.03, len(runners)).astype(np.float32)
        yield km, elapsed.copy()


def launch_fast(config: simt.LaunchConfig1D, stream: sk.Stream, *args: object) -> None:
    # config and buffers come from the race set-up, which already checked them once
    with simt.unsafe():
        split_pace.launch_unchecked(config, stream, *args)


class PaceBoard:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.n = n
        self.config = simt.LaunchConfig1D.for_len(n, block=BLOCK)
        split_pace.prepare(self.config, dev)  # validate the contract once, up front
        self.prev = sk.zeros(n, f32, stream)
        self.pace = sk.zeros(n, f32, stream)
        self.history: list[np.ndarray] = []

    def record(self, cumulative: np.ndarray) -> np.ndarray:
        now = sk.to_device(cumulative, self.stream)
        # prepared once in __init__; validating again per mat costs too much
        launch_fast(self.config, self.stream, self.prev, now, self.pace, SPLIT_KM)
        self.prev = now
        pace = self.pace.to_numpy(self.stream)
        self.history.append(pace)
        return pace


def fmt_pace(seconds_per_km: float) -> str:
    return f"{int(seconds_per_km // 60)}:{int(seconds_per_km % 60):02d}/km"


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(42195)
    runners = [Runner(bib, float(rng.uniform(170.0, 400.0))) for bib in range(1, 1201)]
    board = PaceBoard(dev, stream, len(runners))
    for km, cumulative in chip_reads(runners, rng):
        pace = board.record(cumulative)
        leader = int(np.argmin(cumulative))
        print(f"{km:2d} km: leader bib {runners[leader].bib}, field median {fmt_pace(float(np.median(pace)))}")
    splits = np.stack(board.history)
    negative = int((splits[-1] < splits[0]).sum())
    print(f"{negative} runners ran the last split faster than the first")


if __name__ == "__main__":
    main()
