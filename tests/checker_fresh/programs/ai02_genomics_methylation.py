# fresh-expect: clean
# fresh-note: methylated and unmethylated read counts are turned into beta values by an autotuned kernel that writes a separate output buffer, then smoothed per CpG island on the host.
"""Methylation beta values for CpG sites from bisulfite read counts.

beta = M / (M + U + alpha) per CpG site, computed by an autotuned SIMT kernel; a second kernel flags sites with
too little coverage to call.  Island means are averaged on the host.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SITES = 1800
ISLAND = 60
ALPHA = 1.0
MIN_COVERAGE = 8.0


@simt.kernel
@simt.launch_contract(block=128)
def low_coverage(meth: Slice[f32], unmeth: Slice[f32], out: DisjointSlice[f32], min_cov: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        if meth[i] + unmeth[i] < min_cov:
            o.set(f32(1.0))
        else:
            o.set(f32(0.0))


@simt.autotune(configs=[64, 128, 256], key=["meth"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def beta_values(meth: Slice[f32], unmeth: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(meth[i] / (meth[i] + unmeth[i] + alpha))


def synthetic_counts(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    level = np.clip(0.5 + 0.4 * np.sin(np.arange(n) / 40.0), 0.02, 0.98)
    depth = rng.poisson(20.0, n)
    meth = rng.binomial(depth, level)
    return meth.astype(np.float32), (depth - meth).astype(np.float32)


def coverage_mask(dev: sk.Device, stream: sk.Stream, meth: np.ndarray, unmeth: np.ndarray) -> np.ndarray:
    n = len(meth)
    m_buf = sk.to_device(meth, stream)
    u_buf = sk.to_device(unmeth, stream)
    flags = sk.zeros(n, f32, stream)
    launch = low_coverage.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    low_coverage.launch(launch, stream, m_buf, u_buf, flags, MIN_COVERAGE)
    return flags.to_numpy(stream)


def betas(stream: sk.Stream, meth: np.ndarray, unmeth: np.ndarray) -> np.ndarray:
    m_buf = sk.to_device(meth, stream)
    u_buf = sk.to_device(unmeth, stream)
    beta = sk.zeros(len(meth), f32, stream)
    beta_values.launch(stream, m_buf, u_buf, beta, ALPHA)
    return beta.to_numpy(stream)


def island_means(track: np.ndarray, keep: np.ndarray, size: int) -> np.ndarray:
    usable = len(track) - len(track) % size
    vals = np.where(keep[:usable], track[:usable], np.nan).reshape(-1, size)
    return np.nanmean(vals, axis=1)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    rng = np.random.default_rng(11)
    meth, unmeth = synthetic_counts(rng, SITES)

    low = coverage_mask(dev, stream, meth, unmeth)
    assert np.array_equal(low, (meth + unmeth < MIN_COVERAGE).astype(np.float32))

    beta = betas(stream, meth, unmeth)
    np.testing.assert_allclose(beta, meth / (meth + unmeth + ALPHA), rtol=1e-6)

    means = island_means(beta, low == 0.0, ISLAND)
    hyper = int(np.sum(means > 0.7))
    for k, m in enumerate(means[:5]):
        print(f"island {k:3d}: mean beta {m:.3f}")
    print(f"{hyper} of {len(means)} islands hypermethylated; {int(low.sum())} sites below coverage")


if __name__ == "__main__":
    main()
