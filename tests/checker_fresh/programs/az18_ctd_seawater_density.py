# fresh-expect: clean
# fresh-note: Computes CTD density with a prepared launch and bin-averages it with a shared-memory kernel launched unchecked; the shared array and get_unchecked_mut sit in unsafe blocks in the kernel and launch_unchecked is lexically inside with simt.unsafe() in the function that calls it.
"""CTD cast processing: in-situ density from temperature, salinity and pressure, then 1-dbar bins.

The density uses a linearised equation of state around a reference state (good to a few 0.01
kg/m3 in the upper ocean). The down-cast is sampled at 32 Hz by pressure, so each 1-dbar bin
holds exactly 32 scans: the binning kernel averages one bin per thread block in shared memory.
"""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

SCANS_PER_BIN = 32
N_BINS = 60
RHO0, T0, S0 = 1027.0, 10.0, 35.0
ALPHA, BETA, GAMMA = 1.7e-4, 7.6e-4, 4.4e-3      # 1/C, 1/psu, kg/m3 per dbar


@simt.kernel
@simt.launch_contract(block=128, requires=("len(temp) >= len(rho)", "len(sal) >= len(rho)", "len(pres) >= len(rho)"))
def density(temp: Slice[f32], sal: Slice[f32], pres: Slice[f32], rho: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (r := rho.get_mut(idx)) is not None:
        lin = f32(1.0) - f32(ALPHA) * (temp[i] - f32(T0)) + f32(BETA) * (sal[i] - f32(S0))
        r.set(f32(RHO0) * lin + f32(GAMMA) * pres[i])


@simt.kernel
def bin_mean(scans: Slice[f32], binned: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    b = thread.block_idx_x()
    with simt.unsafe():
        cell = simt.shared_array(f32, 32)
        cell[t] = scans[b * 32 + t]
    thread.sync_threads()
    if t == 0:
        acc = f32(0.0)
        with simt.unsafe():
            for k in range(32):
                acc += cell[k]
            binned.get_unchecked_mut(b).set(acc / f32(32.0))


def bin_profile(stream: sk.Stream, scans: sk.DeviceBuffer, n_bins: int) -> np.ndarray:
    """One block per full bin; the grid never exceeds the number of complete bins in `scans`."""
    binned = sk.zeros(n_bins, f32, stream)
    config = simt.LaunchConfig1D(grid=min(n_bins, len(scans) // SCANS_PER_BIN), block=SCANS_PER_BIN)
    with simt.unsafe():
        bin_mean.launch_unchecked(config, stream, scans, binned)
    return binned.to_numpy(stream)


def synthetic_cast(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = SCANS_PER_BIN * N_BINS
    p = np.linspace(0.5, N_BINS + 0.5, n)
    temp = 8.0 + 8.0 / (1 + np.exp((p - 25.0) / 3.0)) + rng.normal(0, 0.01, n)
    sal = 34.6 + 0.5 / (1 + np.exp(-(p - 30.0) / 5.0)) + rng.normal(0, 0.003, n)
    return temp.astype(np.float32), sal.astype(np.float32), p.astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    temp, sal, pres = synthetic_cast(np.random.default_rng(1872))
    n = len(temp)
    t_dev, s_dev, p_dev = (sk.to_device(a, stream) for a in (temp, sal, pres))
    rho = sk.zeros(n, f32, stream)
    density.launch(density.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev), stream, t_dev, s_dev, p_dev, rho)

    profile = bin_profile(stream, rho, N_BINS)
    n2 = 9.81 / RHO0 * np.gradient(profile, 1.0)      # buoyancy frequency squared per dbar
    k = int(np.argmax(n2))
    print(f"surface sigma-t {profile[0] - 1000:.2f}, bottom {profile[-1] - 1000:.2f} kg/m3")
    print(f"pycnocline at {k + 1} dbar, N^2 = {n2[k]:.2e} s^-2")


if __name__ == "__main__":
    main()
