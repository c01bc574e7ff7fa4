# fresh-expect: clean
# fresh-note: Snowpack density profile that averages each pit's layer samples with a shared-memory block reduction (shared_array and get_unchecked_mut inside the kernel's unsafe blocks) launched through a helper that opens its own `with simt.unsafe():` around launch_unchecked.
"""Per-pit mean snow density from layered core samples."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

LAYERS = 128          # samples per pit == block size
PITS = 24


@simt.kernel
@simt.launch_contract(block=LAYERS)
def pit_mean(density: Slice[f32], means: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    b = thread.block_idx_x()
    i = b * LAYERS + t
    with simt.unsafe():
        s = simt.shared_array(f32, LAYERS)
        s[t] = density[i] if i < len(density) else f32(0.0)
    thread.sync_threads()
    stride = LAYERS // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                s[t] = s[t] + s[t + stride]
        thread.sync_threads()
        stride = stride // 2
    if t == 0 and b < len(means):
        with simt.unsafe():
            means.get_unchecked_mut(b).set(s[0] / f32(LAYERS))


def launch_pits(kernel, config, stream: sk.Stream, *buffers: sk.DeviceBuffer) -> None:
    """One pit per block; the grid is exactly the number of pits, checked by the caller."""
    with simt.unsafe():
        kernel.launch_unchecked(config, stream, *buffers)


def survey(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    depth = np.linspace(0.0, 1.0, LAYERS, dtype=np.float32)
    base = 120.0 + 280.0 * depth  # kg/m^3, denser towards the ground
    return (base[None, :] + rng.normal(0.0, 15.0, (PITS, LAYERS))).astype(np.float32).ravel()


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    samples = sk.to_device(survey(42), stream)
    means = sk.zeros(PITS, f32, stream)
    config = simt.LaunchConfig1D(PITS, LAYERS)
    assert PITS * LAYERS == len(samples)
    launch_pits(pit_mean, config, stream, samples, means)
    got = means.to_numpy(stream)
    want = survey(42).reshape(PITS, LAYERS).mean(axis=1)
    assert np.allclose(got, want, rtol=1e-4), (got[:3], want[:3])
    print("pit densities (kg/m^3):", np.round(got[:6], 1).tolist(), "...")


if __name__ == "__main__":
    main()
