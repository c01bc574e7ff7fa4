# fresh-expect: E0382 at line 54
# fresh-known-false-alarm: cli,mypy false E0382 at line 72: a second use of the moved histogram after the loop, which the runtime never reaches once line 69 raises (a cascade of the same bug)
# fresh-note: Leaky integrate-and-fire network of two populations that share one AtomicTensor spike-count histogram; the per-population helper takes the histogram back from the launch only into its own local, so the caller's loop passes the moved histogram to the second population's launch.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32, i32
from safekernels.tile import AtomicTensor, Partition, Tensor

TILE = 64


@tile.kernel
def lif_step(spikes: Partition[f32], v_out: Partition[f32], v: Tensor[f32], drive: Tensor[f32],
             counts: AtomicTensor[i32], leak: f32, threshold: f32, time_bin: i32) -> None:
    lanes = tile.iota(TILE, i32) + tile.bid(0) * TILE
    vm = tile.load_like(v, v_out) * leak + tile.load_like(drive, v_out)
    fired = (vm >= threshold) & (lanes < v.shape[0])
    spikes.store(tile.where(fired, 1.0, 0.0))
    v_out.store(tile.where(fired, 0.0, vm))
    tile.atomic_add(counts, time_bin, fired.astype(i32))


@dataclass
class Population:
    name: str
    n: int
    leak: float
    threshold: float
    v: object
    v_out: object
    drive: object


def make_population(name: str, n: int, leak: float, threshold: float, mean_drive: float,
                    rng: np.random.Generator) -> Population:
    drive = rng.normal(mean_drive, 0.05, n).astype(np.float32)
    return Population(
        name=name, n=n, leak=leak, threshold=threshold,
        v=tile.from_numpy(rng.uniform(0.0, threshold, n).astype(np.float32)),
        v_out=tile.zeros((n,), f32).partition((TILE,)),
        drive=tile.from_numpy(drive),
    )


def step_population(pop: Population, counts: tile.Tensor, time_bin: int, stream: sk.Stream) -> np.ndarray:
    spikes = tile.zeros((pop.n,), f32).partition((TILE,))
    spikes, pop.v_out, pop.v, pop.drive, counts, _, _, _ = lif_step(
        spikes, pop.v_out, pop.v, pop.drive, counts, pop.leak, pop.threshold, time_bin).sync_on(stream)
    pop.v, pop.v_out = pop.v_out.unpartition(), pop.v.partition((TILE,))
    return spikes.to_numpy(stream)


def simulate(steps: int) -> tuple[np.ndarray, dict[str, int]]:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(21)
    pops = [
        make_population("excitatory", 400, leak=0.9, threshold=1.0, mean_drive=0.12, rng=rng),
        make_population("inhibitory", 100, leak=0.8, threshold=0.8, mean_drive=0.15, rng=rng),
    ]
    counts = tile.zeros((steps,), i32).sync_on(stream)
    totals = {p.name: 0 for p in pops}
    for t in range(steps):
        for pop in pops:
            fired = step_population(pop, counts, t, stream)
            totals[pop.name] += int(fired.sum())
    return counts.to_numpy(stream), totals


if __name__ == "__main__":
    histogram, per_population = simulate(steps=8)
    print("spikes per time bin:", histogram.tolist())
    print("spikes per population:", per_population)
