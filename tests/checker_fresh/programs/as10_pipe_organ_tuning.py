# fresh-expect: clean
# fresh-note: Pipe-organ tuning survey; a registry of prepared launches and functools.partial launchers compute cents offsets per rank into fresh buffers and an atomic deviation histogram.
"""Cents deviation of every pipe in each organ rank, with a histogram across the instrument."""
from __future__ import annotations

import math
from functools import partial

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

PIPES = 61            # C to C, five octaves
NBINS = 16
BIN_CENTS = 2.5
A4 = 440.0


@simt.kernel
@simt.launch_contract(block=64)
def cents_offset(measured: Slice[f32], nominal: Slice[f32], cents: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := cents.get_mut(idx)) is not None:
        o.set(1200.0 * math.log2(measured[i] / nominal[i]))


@simt.kernel
@simt.launch_contract(block=64)
def deviation_histogram(cents: Slice[f32], bins: AtomicSlice[i32], width: f32, nbins: i32) -> None:
    i = thread.index_1d().get()
    if i < len(cents):
        b = i32((cents[i] + width * f32(nbins) / 2.0) / width)
        if b < 0:
            b = i32(0)
        if b > nbins - 1:
            b = nbins - 1
        bins.fetch_add(b, 1)


STAGES = {"cents": cents_offset, "histogram": deviation_histogram}


def equal_temperament(low_midi: int = 36) -> np.ndarray:
    notes = np.arange(low_midi, low_midi + PIPES)
    return (A4 * 2.0 ** ((notes - 69) / 12.0)).astype(np.float32)


def survey_rank(seed: int, drift_cents: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    offsets = rng.normal(drift_cents, 3.0, PIPES)
    return (equal_temperament() * 2.0 ** (offsets / 1200.0)).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(PIPES, block=64)
    prepared = {name: kernel.prepare(cfg, dev) for name, kernel in STAGES.items()}
    to_cents = partial(cents_offset.launch, prepared["cents"], stream)
    histogram = partial(deviation_histogram.launch, prepared["histogram"], stream)

    nominal = sk.to_device(equal_temperament(), stream)
    bins = sk.zeros(NBINS, i32, stream)
    ranks = {
        "Principal 8'": survey_rank(1, 1.5),
        "Gedackt 8'": survey_rank(2, -2.0),
        "Octave 4'": None,                      # not surveyed this visit
        "Trumpet 8'": survey_rank(4, 6.0),
    }
    worst: dict[str, tuple[int, float]] = {}
    for name, measured in ranks.items():
        if measured is None:
            print(f"{name:14s} skipped")
            continue
        cents = sk.zeros(PIPES, f32, stream)
        to_cents(sk.to_device(measured, stream), nominal, cents)
        histogram(cents, bins, BIN_CENTS, NBINS)
        values = cents.to_numpy(stream)
        pipe = int(np.argmax(np.abs(values)))
        worst[name] = (pipe, float(values[pipe]))
        print(f"{name:14s} mean {values.mean():+5.2f} c, worst pipe {pipe:2d} at {values[pipe]:+6.2f} c")

    counts = bins.to_numpy(stream)
    edges = (np.arange(NBINS) - NBINS // 2) * BIN_CENTS
    print(" ".join(f"{e:+.0f}:{c}" for e, c in zip(edges, counts) if c))
    retune = [name for name, (_, c) in worst.items() if abs(c) > 10.0]
    print("ranks to retune:", retune or "none")


if __name__ == "__main__":
    main()
