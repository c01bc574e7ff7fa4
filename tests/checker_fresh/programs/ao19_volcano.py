# fresh-expect: E0505 at line 64
# fresh-note: Volcano SO2: start_emission() leaves an emission launch_async op pending that borrows column through column.as_buffer(), and process_scan moves column into the remove_background tile launch before running that op.
"""Volcano observatory: SO2 column densities from DOAS scans, then emission rate and background-free plume."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

SCAN_POINTS = 1024  # viewing directions across the plume
TILE = 256
BLOCK = 256
SO2_CROSS_SECTION = 2.5e-19 * 1e16  # cm^2, in units of 1e16 molecules so values stay in f32 range


@tile.kernel
def column_density(column: Partition[f32], counts: Tensor[f32], clear_sky: Tensor[f32], xsec: f32) -> None:
    optical_depth = tile.log(tile.load_like(clear_sky, column) / tile.load_like(counts, column))
    column.store(optical_depth / xsec)


@tile.kernel
def remove_background(plume: Partition[f32], column: Tensor[f32], background: f32) -> None:
    c = tile.load_like(column, plume) - background
    plume.store(tile.where(c > 0.0, c, c * 0.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def emission(column: Slice[f32], wind: Slice[f32], rate: DisjointSlice[f32], step_m: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := rate.get_mut(idx)) is not None:
        # 1e16 molec/cm^2 * m/s * m -> kg/s of SO2 (64 g/mol)
        out.set(column[i] * wind[i] * step_m * 1.0e20 * 0.064 / 6.022e23)


def start_emission(column: Tensor, wind: sk.DeviceBuffer, launch, step_m: float, stream: sk.Stream):
    rate = sk.zeros(SCAN_POINTS, f32, stream)
    pending = emission.launch_async(launch, column.as_buffer(), wind, rate, step_m)
    return pending, rate


def synthetic_scan(rng: np.random.Generator, strength: float) -> tuple[np.ndarray, np.ndarray]:
    angles = np.linspace(-1.0, 1.0, SCAN_POINTS)
    plume = strength * np.exp(-(angles / 0.25) ** 2)
    clear = rng.uniform(9.0e3, 1.1e4, SCAN_POINTS)
    counts = clear * np.exp(-(plume + 0.05) * SO2_CROSS_SECTION)
    return counts.astype(np.float32), clear.astype(np.float32)


def process_scan(counts: np.ndarray, clear: np.ndarray, wind_ms: float, dev: sk.Device, stream: sk.Stream) -> dict:
    launch = emission.prepare(simt.LaunchConfig1D.for_len(SCAN_POINTS, block=BLOCK), dev)
    cols = tile.zeros((SCAN_POINTS,), f32).partition((TILE,))
    cols, _, _, _ = column_density(cols, tile.from_numpy(counts), tile.from_numpy(clear), SO2_CROSS_SECTION).sync_on(stream)
    column = cols.unpartition()
    wind = sk.to_device(np.full(SCAN_POINTS, wind_ms, np.float32), stream)
    pending, rate = start_emission(column, wind, launch, step_m=12.0, stream=stream)
    edges = column.to_numpy(stream)
    background = float(np.median(np.concatenate([edges[:64], edges[-64:]])))
    plume = tile.zeros((SCAN_POINTS,), f32).partition((TILE,))
    plume, column, _ = remove_background(plume, column, background).sync_on(stream)
    pending.sync_on(stream)
    return {
        "so2_kg_s": float(rate.to_numpy(stream).sum()),
        "peak_column": float(plume.to_numpy(stream).max()),
        "background": background,
    }


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(1980)
    for hour, (strength, wind) in enumerate([(0.8, 6.0), (1.4, 8.5), (2.3, 4.0)]):
        counts, clear = synthetic_scan(rng, strength)
        result = process_scan(counts, clear, wind, dev, stream)
        print(f"scan {hour}: {result['so2_kg_s'] * 86.4:.0f} t/day, peak {result['peak_column']:.2f}e16 molec/cm2")


if __name__ == "__main__":
    main()
