# fresh-expect: clean
# fresh-note: Substation voltage solver that queues one async Jacobi sweep per feeder in a list, drains them all with sk.zip(*ops).sync_on before an autotuned tile limit check moves each feeder's voltage buffer and takes it back.
from __future__ import annotations

from typing import Annotated

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 64


@simt.kernel
@simt.launch_contract(block=64)
def jacobi_sweep(v: Slice[f32], inj: Slice[f32], v_out: DisjointSlice[f32], g: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(v)
    if i < n:
        up = v[i - 1] if i > 0 else f32(1.0)
        down = v[i + 1] if i + 1 < n else v[i]
        if (o := v_out.get_mut(idx)) is not None:
            o.set((g * (up + down) + inj[i]) / (f32(2.0) * g))


@tile.autotune(configs=[tile.Config(BLOCK=64), tile.Config(BLOCK=128)], key=["v"], warmup=1, rep=2)
@tile.kernel
def deviation(dev_out: Annotated[Partition[f32], tile.Dims(BLOCK)], v: Tensor[f32], nominal: f32) -> None:
    t = tile.load_like(v, dev_out)
    dev_out.store(tile.maximum(t - nominal, nominal - t))


class Substation:
    def __init__(self, feeders: dict[str, float], buses: int, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        rng = np.random.default_rng(3)
        self.names = list(feeders)
        self.v = {n: sk.to_device(np.ones(buses, np.float32), self.stream) for n in self.names}
        self.v_next = {n: sk.zeros(buses, f32, self.stream) for n in self.names}
        self.inj = {n: sk.to_device((-load * rng.random(buses)).astype(np.float32), self.stream)
                    for n, load in feeders.items()}
        self.prepared = jacobi_sweep.prepare(simt.LaunchConfig1D.for_len(buses, block=64), dev)

    def sweep(self, g: float) -> None:
        ops = [jacobi_sweep.launch_async(self.prepared, self.v[n], self.inj[n], self.v_next[n], g)
               for n in self.names]
        sk.zip(*ops).sync_on(self.stream)
        for n in self.names:
            self.v[n], self.v_next[n] = self.v_next[n], self.v[n]

    def worst_deviation(self) -> dict[str, float]:
        result = {}
        for n in self.names:
            buses = len(self.v[n])
            out, self.v[n], _ = deviation(tile.zeros((buses,), f32), self.v[n], 1.0).sync_on(self.stream)
            result[n] = float(out.to_numpy(self.stream).max())
        return result


def main() -> None:
    station = Substation({"north": 0.02, "harbor": 0.05, "mill": 0.09}, buses=256, dev=sk.Device.cpu())
    tolerance = 1e-4
    previous = None
    for it in range(6):
        station.sweep(g=5.0)
        worst = station.worst_deviation()
        total = sum(worst.values())
        print(f"sweep {it}: worst deviation per feeder {worst}")
        if previous is not None and abs(previous - total) < tolerance:
            break
        previous = total


if __name__ == "__main__":
    main()
