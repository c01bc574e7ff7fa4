# fresh-expect: E0382 at line 41
# fresh-known-miss: cli,mypy a functools.partial that __init__ stores on self binding a tensor, called by another method in a loop: the bound argument's move is not followed across calls of an attribute partial
# fresh-note: Dips wool batches in a dye vat through a functools.partial that binds the vat's dye tensor once; the first dip's tile launch moves that tensor (its handle comes back as `_` and is dropped), so the second call of the partial passes a moved value.
"""Dye-vat uptake: how much dye each skein of wool takes up per dip, batch by batch."""
from __future__ import annotations
import functools
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

FIBRES = 192
TILE = 64


@tile.kernel
def dye_uptake(out: Partition[f32], dye: Tensor[f32], fibre: Tensor[f32], rate: f32) -> None:
    conc = tile.load_like(dye, out)
    wool = tile.load_like(fibre, out)
    out.store(wool + rate * conc * (1.0 - wool))


@dataclass
class VatBatch:
    lot: str
    fibre: Tensor[f32]
    dips: int = 0
    history: list[float] = field(default_factory=list)

    def record(self, saturation: np.ndarray) -> None:
        self.dips += 1
        self.history.append(float(saturation.mean()))


def _uptake(dye: Tensor[f32], batch: VatBatch, rate: float) -> sk.DeviceOp:
    out = tile.zeros((FIBRES,), f32).partition((TILE,))
    return dye_uptake(out, dye, batch.fibre, rate)


def batches(lots: list[str], stream: sk.Stream, seed: int) -> Iterator[VatBatch]:
    rng = np.random.default_rng(seed)
    for lot in lots:
        fibre = rng.uniform(0.0, 0.05, FIBRES).astype(np.float32)
        yield VatBatch(lot, tile.from_numpy(fibre).sync_on(stream))


class DyeVat:
    def __init__(self, colour: str, strength: float, stream: sk.Stream) -> None:
        self.colour = colour
        self.stream = stream
        profile = strength * (0.8 + 0.2 * np.cos(np.linspace(0, np.pi, FIBRES)))
        self.dye = tile.from_numpy(profile.astype(np.float32)).sync_on(stream)
        # the vat's dye bath is the same for every skein: bind it once
        self.dip = functools.partial(_uptake, self.dye)

    @property
    def temperature_rate(self) -> float:
        return 0.35 if self.colour == "madder" else 0.25

    def process(self, batch: VatBatch, dips: int) -> VatBatch:
        for _ in range(dips):
            out, _, fibre, _ = self.dip(batch, self.temperature_rate).sync_on(self.stream)
            batch.fibre = out.unpartition()
            batch.record(batch.fibre.to_numpy(self.stream))
        return batch


def main() -> None:
    stream = sk.Device.default().new_stream()
    vat = DyeVat("madder", 0.9, stream)
    for batch in batches(["lot-17", "lot-18"], stream, seed=9):
        done = vat.process(batch, dips=3)
        trail = ", ".join(f"{h:.3f}" for h in done.history)
        print(f"{done.lot}: {done.dips} dips in {vat.colour}: saturation {trail}")


if __name__ == "__main__":
    main()
