# fresh-expect: clean
# fresh-note: Iteratively despikes sonic-anemometer series, ping-ponging src and dst with a tuple swap between passes driven by itertools.islice over a threshold generator; each pass reads one buffer and writes the other, with a fresh spike counter per pass.
"""Eddy-covariance flux processing: iterative despiking of 10 Hz sonic data, then the sensible-heat flux.

Vickers & Mahrt style despiking: a sample is a spike when it departs from the moving-window mean
by more than k standard deviations; it is replaced by the window mean, and the pass repeats with
a looser threshold until no spike is left. Passes ping-pong between two device buffers.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import AtomicSlice, DisjointSlice, Slice, thread

HZ = 10
N = 1200                      # two minutes
HALF = 15                     # 3 s window
RHO_CP = 1.2 * 1005.0


@simt.kernel
@simt.launch_contract(block=128, requires=("len(src) == len(dst)",))
def despike_pass(src: Slice[f32], dst: DisjointSlice[f32], spikes: AtomicSlice[i32], k_sigma: f32, half: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if i >= n:
        return
    lo = max(i - half, 0)
    hi = min(i + half + 1, n)
    s = f32(0.0)
    s2 = f32(0.0)
    for j in range(lo, hi):
        s += src[j]
        s2 += src[j] * src[j]
    m = s / f32(hi - lo)
    sd = math.sqrt(max(s2 / f32(hi - lo) - m * m, f32(1e-12)))
    v = src[i]
    if (o := dst.get_mut(idx)) is not None:
        if abs(v - m) > k_sigma * sd:
            o.set(m)
            spikes.fetch_add(0, i32(1))
        else:
            o.set(v)


def thresholds(start: float = 3.5, step: float = 0.3):
    return (start + step * k for k in itertools.count())


def despike(stream: sk.Stream, prep: simt.PreparedLaunch, series: np.ndarray, max_passes: int = 8) -> tuple[np.ndarray, int]:
    offset = float(series.mean())            # despike anomalies: keeps the f32 variance well conditioned
    src = sk.to_device((series - offset).astype(np.float32), stream)
    dst = sk.zeros(len(series), f32, stream)
    total = 0
    for k_sigma in itertools.islice(thresholds(), max_passes):
        counter = sk.zeros(1, i32, stream)
        despike_pass.launch(prep, stream, src, dst, counter, k_sigma, HALF)
        found = int(counter.to_numpy(stream)[0])
        total += found
        src, dst = dst, src
        if found == 0:
            break
    return src.to_numpy(stream) + offset, total


def synthetic_sonic(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    t = np.arange(N) / HZ
    eddies = np.convolve(rng.normal(0, 1, N), np.ones(20) / 20, mode="same")
    w = 0.35 * eddies + rng.normal(0, 0.05, N)
    ts = 293.0 + 0.6 * eddies + 0.2 * np.sin(t / 60) + rng.normal(0, 0.03, N)
    for arr, amp in ((w, 4.0), (ts, 6.0)):
        hits = rng.choice(N, 12, replace=False)
        arr[hits] += amp * rng.choice([-1, 1], 12)
    return w, ts


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = despike_pass.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    w_raw, ts_raw = synthetic_sonic(np.random.default_rng(500))

    w, w_spikes = despike(stream, prep, w_raw)
    ts, ts_spikes = despike(stream, prep, ts_raw)
    h_raw = RHO_CP * np.mean((w_raw - w_raw.mean()) * (ts_raw - ts_raw.mean()))
    h = RHO_CP * np.mean((w - w.mean()) * (ts - ts.mean()))
    print(f"spikes replaced: w {w_spikes}, Ts {ts_spikes}")
    print(f"sensible heat flux: raw {h_raw:6.1f} W/m2, despiked {h:6.1f} W/m2")


if __name__ == "__main__":
    main()
