# fresh-expect: clean
# fresh-note: Scours alpaca fleece samples with launch_async jobs collected by a ShearingShed context manager, flushes every pending scour inside the block, and only then partitions the cleaned fibre buffers for tile grading.
"""Alpaca fleece sorting shed: scours fibre samples on the SIMT side, then grades micron classes in tiles."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

FIBRES = 256
TILE = 64


@simt.kernel
@simt.launch_contract(block=64)
def scour(raw: Slice[f32], grease: Slice[f32], clean: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (fibre := clean.get_mut(idx)) is not None:
        fibre.set(raw[i] - grease[i] * 0.8)


@tile.kernel
def grade(bins: Partition[f32], microns: Tensor[f32], cutoff: f32) -> None:
    m = tile.load_like(microns, bins)
    bins.store(tile.where(m < cutoff, 1.0, 0.0))


class ShearingShed:
    """Collects scouring jobs while a fleece is skirted; they are all waited for on exit."""

    def __init__(self, device: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.prepared = scour.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)
        self.ops: list[sk.DeviceOp] = []
        self.n = n

    def __enter__(self) -> "ShearingShed":
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush()

    def submit(self, raw: sk.DeviceBuffer, grease: sk.DeviceBuffer) -> sk.DeviceBuffer:
        clean = sk.zeros(self.n, f32, self.stream)
        self.ops.append(scour.launch_async(self.prepared, raw, grease, clean))
        return clean

    def flush(self) -> int:
        ran = 0
        while self.ops:
            self.ops.pop(0).sync_on(self.stream)
            ran += 1
        return ran


class Classer:
    def __init__(self, stream: sk.Stream, cutoff: float) -> None:
        self.stream = stream
        self.cutoff = cutoff

    def fine_fraction(self, clean: sk.DeviceBuffer) -> float:
        bins = tile.zeros((FIBRES,), f32).partition((TILE,))
        fibre = clean.partition((TILE,)).unpartition()
        bins = grade(bins, fibre, self.cutoff).first().sync_on(self.stream)
        return float(bins.unpartition().to_numpy(self.stream).mean())


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(23)
    classer = Classer(stream, cutoff=21.5)
    results: dict[str, float] = {}
    with ShearingShed(device, stream, FIBRES) as shed:
        staged = {}
        for animal in ("huacaya-14", "suri-02", "huacaya-31"):
            raw = sk.to_device(rng.normal(22.0, 2.5, FIBRES).astype(np.float32), stream)
            grease = sk.to_device(rng.uniform(0.0, 1.0, FIBRES).astype(np.float32), stream)
            staged[animal] = shed.submit(raw, grease)
        shed.flush()  # every scour has landed before the classer moves the fibre into tiles
        for animal, clean in staged.items():
            results[animal] = classer.fine_fraction(clean)
    for animal, frac in results.items():
        print(f"{animal}: {frac:.1%} under {classer.cutoff} micron")


if __name__ == "__main__":
    main()
