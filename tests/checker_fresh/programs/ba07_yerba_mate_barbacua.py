# fresh-expect: E0382 at line 71
# fresh-known-miss: cli,mypy one op stored in a dataclass field of every queued lot, moved by the first lot's launch: objects shared between items of a deque attribute are not followed across methods
# fresh-note: Dries queued yerba mate lots in a barbacua kiln with a tile kernel chosen per style; every Lot is given the kiln's one smoke_profile DeviceOp, so the first lot's launch moves it and the second lot's launch uses the moved op.
"""Yerba mate barbacua kiln: dries queued leaf lots over one smoke profile, with a kernel per drying style."""
from __future__ import annotations
import collections
import enum
from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 512
TILE = 128


@tile.kernel
def slow_dry(moisture: Partition[f32], leaves: Tensor[f32], smoke: Tensor[f32], heat: f32) -> None:
    wet = tile.load_like(leaves, moisture)
    s = tile.load_like(smoke, moisture)
    moisture.store(wet * (1.0 - heat * 0.5) + s * 0.05)


@tile.kernel
def flash_dry(moisture: Partition[f32], leaves: Tensor[f32], smoke: Tensor[f32], heat: f32) -> None:
    wet = tile.load_like(leaves, moisture)
    s = tile.load_like(smoke, moisture)
    moisture.store(tile.maximum(wet - heat, 0.0) + s * 0.02)


class Style(enum.Enum):
    BARBACUA = "barbacua"
    SAPECADO = "sapecado"


KILN_KERNELS = {Style.BARBACUA: slow_dry, Style.SAPECADO: flash_dry}
HEAT = {Style.BARBACUA: 0.6, Style.SAPECADO: 0.35}


@dataclass
class Lot:
    estate: str
    style: Style
    leaves: sk.DeviceOp
    smoke: sk.DeviceOp
    moisture: float = float("nan")


class Kiln:
    def __init__(self, device: sk.Device, n: int) -> None:
        self.stream = device.new_stream()
        self.n = n
        rng = np.random.default_rng(29)
        # one smoke profile per kiln firing: every lot in this firing is dried over the same wood smoke
        self.smoke_profile = tile.from_numpy(rng.uniform(0.0, 1.0, n).astype(np.float32))
        self.queue: collections.deque[Lot] = collections.deque()
        self.finished: list[Lot] = []

    def enqueue(self, estate: str, style: Style, leaves: np.ndarray) -> "Kiln":
        self.queue.append(Lot(estate, style, tile.from_numpy(leaves.astype(np.float32)), self.smoke_profile))
        return self

    def work(self) -> list[Lot]:
        while self.queue:
            lot = self.queue.popleft()
            kernel = KILN_KERNELS[lot.style]
            moisture = tile.zeros((self.n,), f32).partition((TILE,))
            op = kernel(moisture, lot.leaves, lot.smoke, HEAT[lot.style])
            moisture, _leaves, _smoke, _ = op.sync_on(self.stream)
            lot.moisture = float(moisture.unpartition().to_numpy(self.stream).mean())
            self.finished.append(lot)
        return self.finished


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(2)
    kiln = Kiln(device, CELLS)
    (
        kiln.enqueue("Apóstoles", Style.BARBACUA, rng.uniform(0.5, 0.7, CELLS))
        .enqueue("Oberá", Style.SAPECADO, rng.uniform(0.55, 0.75, CELLS))
        .enqueue("Itapúa", Style.BARBACUA, rng.uniform(0.45, 0.65, CELLS))
    )
    for lot in kiln.work():
        print(f"{lot.estate:>10} [{lot.style.value}]: residual moisture {lot.moisture:.3f}")


if __name__ == "__main__":
    main()
