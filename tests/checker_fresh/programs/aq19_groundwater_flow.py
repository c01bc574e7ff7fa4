# fresh-expect: W0003 at line 56
# fresh-known-miss: cli,mypy W0003 of an op left in a dict when only some keys are zipped and run: an op stored in a container counts as consumed (generous by design)
# fresh-note: Layered-aquifer vertical leakage with one lazy tile launch per layer; bug: `leakage_ops` builds an op for every layer (line 56) but `monitored_fluxes` only zips and runs the monitored layers, so the water-table layer's op is dropped unrun.
"""Layered aquifer model: vertical leakage between hydrogeological layers of a regional groundwater model.
For every layer, a tile kernel computes the leakage flux from the layer above through an aquitard (Darcy's
law across the layer thickness).  One lazy launch is built per layer; the monitored layers are run together.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 64 * 64
TILE = 512


@tile.kernel
def leakage(q: Partition[f32], head_above: Tensor[f32], head: Tensor[f32], k_vert: Tensor[f32], thickness: f32) -> None:
    dh = tile.load_like(head_above, q) - tile.load_like(head, q)
    q.store(tile.load_like(k_vert, q) * dh * (1.0 / thickness))


@dataclass
class Layer:
    name: str
    top_m: float
    thickness_m: float
    k_vert_m_per_day: float


@dataclass
class AquiferModel:
    layers: list[Layer]
    monitored: set[str]
    heads: dict[str, np.ndarray]
    rng: np.random.Generator

    def conductivity(self, layer: Layer) -> np.ndarray:
        return (layer.k_vert_m_per_day * self.rng.lognormal(0.0, 0.5, CELLS)).astype(np.float32)


def leakage_ops(model: AquiferModel, recharge_head: np.ndarray) -> dict[str, sk.DeviceOp]:
    ops: dict[str, sk.DeviceOp] = {}
    above = recharge_head
    for layer in model.layers:
        head = model.heads[layer.name]
        q = tile.zeros((CELLS,), f32).partition((TILE,))
        args = (tile.from_numpy(above), tile.from_numpy(head), tile.from_numpy(model.conductivity(layer)))
        ops[layer.name] = leakage(q, *args, layer.thickness_m).first()
        above = head
    return ops


def monitored_fluxes(model: AquiferModel, recharge_head: np.ndarray, stream: sk.Stream) -> dict[str, float]:
    ops = leakage_ops(model, recharge_head)
    names = [name for name in ops if name in model.monitored]
    fluxes = sk.zip(*(ops[name] for name in names)).sync_on(stream)
    return {name: float(q.unpartition().to_numpy(stream).mean()) for name, q in zip(names, fluxes)}


def main() -> None:
    rng = np.random.default_rng(8)
    layers = [
        Layer("water_table", 0.0, 12.0, 0.5),
        Layer("upper_sand", -12.0, 30.0, 0.08),
        Layer("lower_gravel", -42.0, 55.0, 0.02),
    ]
    surface = rng.normal(48.0, 0.5, CELLS).astype(np.float32)
    heads = {
        layer.name: (surface - 0.6 * (i + 1) + rng.normal(0.0, 0.2, CELLS)).astype(np.float32)
        for i, layer in enumerate(layers)
    }
    model = AquiferModel(layers, monitored={"upper_sand", "lower_gravel"}, heads=heads, rng=rng)
    stream = sk.Device.cpu().new_stream()
    for scenario, uplift in (("dry season", -0.8), ("wet season", 0.9)):
        fluxes = monitored_fluxes(model, surface + uplift, stream)
        cells = ", ".join(f"{name} {1000 * q:+.2f} mm/d" for name, q in fluxes.items())
        print(f"{scenario:<10}: {cells}")


if __name__ == "__main__":
    main()
