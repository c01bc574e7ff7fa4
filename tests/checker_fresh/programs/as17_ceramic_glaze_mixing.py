# fresh-expect: E0499 at line 60
# fresh-note: Ceramic glaze batching; the per-glaze oxide outputs come from `dict.fromkeys(names, sk.zeros(...))`, so every glaze shares one buffer and the second queued launch_async writes it while the first is still pending.
"""Oxide totals (unity molecular formula inputs) for a kiln load of glaze batches."""
from __future__ import annotations

import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

MATERIALS = ("custer_feldspar", "silica", "whiting", "kaolin", "zinc_oxide", "talc")
OXIDES = ("SiO2", "Al2O3", "CaO", "K2O", "Na2O", "ZnO", "MgO")
# weight fraction of each oxide in each raw material (rows: MATERIALS, cols: OXIDES)
OXIDE_TABLE = np.array([
    [0.69, 0.17, 0.00, 0.10, 0.03, 0.00, 0.00],
    [1.00, 0.00, 0.00, 0.00, 0.00, 0.00, 0.00],
    [0.00, 0.00, 0.56, 0.00, 0.00, 0.00, 0.00],
    [0.46, 0.38, 0.00, 0.00, 0.00, 0.00, 0.00],
    [0.00, 0.00, 0.00, 0.00, 0.00, 1.00, 0.00],
    [0.63, 0.00, 0.00, 0.00, 0.00, 0.00, 0.32],
], dtype=np.float32)


@simt.kernel
@simt.launch_contract(block=32)
def oxide_totals(recipe: Slice[f32], table: Slice[f32], out: DisjointSlice[f32], batch_kg: f32) -> None:
    idx = thread.index_1d()
    j = idx.get()
    if (o := out.get_mut(idx)) is not None:
        acc = f32(0.0)
        width = len(out)
        for m in range(len(recipe)):
            acc += recipe[m] * table[m * width + j]
        o.set(acc * batch_kg / 100.0)


GLAZES = {
    "celadon":     [40.0, 30.0, 20.0, 10.0, 0.0, 0.0],
    "zinc_matte":  [35.0, 25.0, 15.0, 10.0, 15.0, 0.0],
    "satin_white": [30.0, 30.0, 10.0, 20.0, 0.0, 10.0],
}


class BatchPlanner:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.table = sk.to_device(OXIDE_TABLE.ravel(), stream)
        self.prepared = oxide_totals.prepare(simt.LaunchConfig1D.for_len(len(OXIDES), block=32), dev)

    def plan(self, glazes: dict[str, list[float]], batch_kg: dict[str, float]) -> dict[str, np.ndarray]:
        outputs = dict.fromkeys(glazes, sk.zeros(len(OXIDES), f32, self.stream))
        pending = []
        for name, recipe in glazes.items():
            if abs(sum(recipe) - 100.0) > 0.5:
                print(f"skipping {name}: recipe sums to {sum(recipe)}")
                continue
            recipe_buf = sk.to_device(np.asarray(recipe, np.float32), self.stream)
            pending.append(oxide_totals.launch_async(self.prepared, recipe_buf, self.table,
                                                     outputs[name], batch_kg.get(name, 5.0)))
        for op in pending:
            op.sync_on(self.stream)
        return {name: buf.to_numpy(self.stream) for name, buf in outputs.items()}


def flux_ratio(totals: np.ndarray) -> float:
    fluxes = totals[[OXIDES.index(o) for o in ("CaO", "K2O", "Na2O", "ZnO", "MgO")]].sum()
    return float(totals[OXIDES.index("SiO2")] / max(fluxes, 1e-6))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    planner = BatchPlanner(dev, stream)
    totals = planner.plan(GLAZES, {"celadon": 8.0, "zinc_matte": 3.5})
    for name, oxides in totals.items():
        top = sorted(zip(OXIDES, oxides), key=lambda kv: -kv[1])[:3]
        print(f"{name:12s} silica/flux {flux_ratio(oxides):5.2f}  " + ", ".join(f"{o} {w:.2f} kg" for o, w in top))


if __name__ == "__main__":
    main()
