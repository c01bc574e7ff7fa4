# fresh-expect: E0382 at line 54
# fresh-note: Stamps ngatu sheets and retries with more pressure when the print is pale; only the else branch stores the bark and dye that sync_on handed back, so after the PaleImpression retry the next launch passes sheet.bark, which the first attempt's launch moved.
"""Ngatu (Tongan tapa) stamping board: rubs koka dye over the kupesi pattern, pressing harder if the print is pale."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

CELLS = 512
TILE = 128


@tile.kernel
def kupesi_rub(print_: Partition[f32], bark: Tensor[f32], dye: Tensor[f32], pressure: f32) -> None:
    b = tile.load_like(bark, print_)
    d = tile.load_like(dye, print_)
    print_.store(tile.where(b * d * pressure > 0.5, 1.0, 0.0))


class PaleImpression(Exception):
    def __init__(self, coverage: float) -> None:
        super().__init__(f"coverage {coverage:.1%} is too pale")
        self.coverage = coverage


@dataclass
class Sheet:
    family: str
    bark: sk.DeviceOp
    dye: sk.DeviceOp
    min_coverage: float = 0.85
    coverage: float = 0.0


class StampingBoard:
    def __init__(self, device: sk.Device, max_attempts: int = 4) -> None:
        self.stream = device.new_stream()
        self.max_attempts = max_attempts
        self.rubs = 0
        self.notes: list[str] = []

    def _coverage(self, impression: Partition) -> float:
        return float(impression.unpartition().to_numpy(self.stream).mean())

    def stamp(self, sheet: Sheet, pressure: float) -> Sheet:
        for attempt in range(1, self.max_attempts + 1):
            try:
                blank = tile.zeros((CELLS,), f32).partition((TILE,))
                op = kupesi_rub(blank, sheet.bark, sheet.dye, pressure)
                impression, bark, dye, _ = op.sync_on(self.stream)
                coverage = self._coverage(impression)
                if coverage < sheet.min_coverage:
                    raise PaleImpression(coverage)
            except PaleImpression as pale:
                self.notes.append(f"{sheet.family}: attempt {attempt} {pale}; pressing harder")
                pressure *= 1.25
            else:
                sheet.bark, sheet.dye, sheet.coverage = bark, dye, coverage
                return sheet
            finally:
                self.rubs += 1
        raise RuntimeError(f"{sheet.family}: still pale after {self.max_attempts} rubs")


def main() -> None:
    device = sk.Device.default()
    rng = np.random.default_rng(89)
    board = StampingBoard(device)
    sheets = [
        Sheet(family, tile.from_numpy(rng.uniform(0.6, 1.0, CELLS).astype(np.float32)),
              tile.from_numpy(rng.uniform(0.7, 1.0, CELLS).astype(np.float32)))
        for family in ("Fusitu'a", "Vaea")
    ]
    for sheet in sheets:
        board.stamp(sheet, pressure=0.8)
        print(f"{sheet.family:>9}: coverage {sheet.coverage:.1%}")
    print("\n".join(board.notes))
    print("rubs:", board.rubs)


if __name__ == "__main__":
    main()
