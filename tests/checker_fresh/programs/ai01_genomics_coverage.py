# fresh-expect: E0502 at line 69
# fresh-note: to save an allocation the raw depth buffer is passed to the autotuned normalize_depth kernel as both its read-only input and its output.
"""Per-base read depth normalisation and GC-content windows for a short synthetic contig.

One SIMT kernel marks G/C bases, an autotuned one scales raw per-base depth to reads-per-million; the host then
averages both over fixed windows, the way a coverage track for a genome browser is built.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u8
from safekernels.simt import DisjointSlice, Slice, thread

WINDOW = 100
CONTIG_LEN = 2000
TOTAL_READS = 1_250_000


@simt.kernel
@simt.launch_contract(block=128)
def gc_indicator(seq: Slice[u8], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        base = seq[i]
        if base == 67 or base == 71:
            o.set(f32(1.0))
        else:
            o.set(f32(0.0))


@simt.autotune(configs=[64, 128, 256], key=["depth"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def normalize_depth(depth: Slice[f32], out: DisjointSlice[f32], per_million: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(depth[i] * per_million)


def synthetic_contig(rng: np.random.Generator, n: int) -> np.ndarray:
    letters = np.frombuffer(b"ACGT", dtype=np.uint8)
    weights = np.array([0.3, 0.2, 0.2, 0.3])
    return rng.choice(letters, size=n, p=weights).astype(np.uint8)


def synthetic_depth(rng: np.random.Generator, n: int) -> np.ndarray:
    base = 30.0 + 10.0 * np.sin(np.linspace(0.0, 6.0, n))
    return rng.poisson(base).astype(np.float32)


def gc_track(dev: sk.Device, stream: sk.Stream, seq: np.ndarray) -> np.ndarray:
    n = len(seq)
    seq_buf = sk.to_device(seq, stream)
    flags = sk.zeros(n, f32, stream)
    launch = gc_indicator.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    gc_indicator.launch(launch, stream, seq_buf, flags)
    return flags.to_numpy(stream)


def normalize(stream: sk.Stream, raw_depth: np.ndarray, total_reads: int) -> np.ndarray:
    depth = sk.to_device(raw_depth, stream)
    per_million = np.float32(1e6 / total_reads)
    normalize_depth.launch(stream, depth, depth, per_million)
    return depth.to_numpy(stream)


def window_means(track: np.ndarray, window: int) -> np.ndarray:
    usable = len(track) - len(track) % window
    return track[:usable].reshape(-1, window).mean(axis=1)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(7)
    seq = synthetic_contig(rng, CONTIG_LEN)
    raw = synthetic_depth(rng, CONTIG_LEN)

    gc = gc_track(dev, stream, seq)
    expected_gc = np.isin(seq, np.frombuffer(b"CG", dtype=np.uint8)).astype(np.float32)
    assert np.array_equal(gc, expected_gc)

    rpm = normalize(stream, raw, TOTAL_READS)
    np.testing.assert_allclose(rpm, raw * np.float32(1e6 / TOTAL_READS), rtol=1e-6)

    gc_windows = window_means(gc, WINDOW)
    depth_windows = window_means(rpm, WINDOW)
    corr = float(np.corrcoef(gc_windows, depth_windows)[0, 1])
    for k, (g, d) in enumerate(zip(gc_windows[:5], depth_windows[:5])):
        print(f"window {k:3d}: GC {g:.2f}  depth {d:.3f} RPM")
    print(f"GC/depth correlation over {len(gc_windows)} windows: {corr:+.3f}")


if __name__ == "__main__":
    main()
