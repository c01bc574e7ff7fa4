# fresh-expect: E0505 at line 50
# fresh-note: PressSession.__enter__ starts a wicking launch_async that borrows the moisture buffer until __exit__; inside the with block cure_in_press hands session.moisture to the Glue.spread staticmethod, whose partition() moves the still-borrowed buffer.
"""Bookbinding: how far the PVA along each spine has cured while a text block sits in the nipping press."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

SPINE = 160
BLOCK = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def wicking(moisture: Slice[f32], paper_gsm: Slice[f32], absorbed: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := absorbed.get_mut(idx)) is not None:
        o.set(moisture[i] * paper_gsm[i] / (paper_gsm[i] + 90.0))


@tile.kernel
def cure(moisture: Partition[f32], keep: f32) -> None:
    moisture.store(moisture.load() * keep)


@dataclass(frozen=True)
class Adhesive:
    name: str
    cure_rate: float  # fraction of the remaining water lost per minute

    @classmethod
    def pva(cls) -> "Adhesive":
        return cls("PVA", 0.06)

    @classmethod
    def wheat_paste(cls) -> "Adhesive":
        return cls("wheat paste", 0.025)


class Glue:
    @staticmethod
    def spread(moisture: sk.DeviceBuffer, width: int = 32) -> Partition[f32]:
        return moisture.partition((width,))


class PressSession:
    """While the block is in the press, paper wicking is estimated in the background."""

    def __init__(self, dev: sk.Device, gsm: np.ndarray, wet: float) -> None:
        self.stream = dev.new_stream()
        self.prepared = wicking.prepare(simt.LaunchConfig1D.for_len(SPINE, block=BLOCK), dev)
        self.moisture = sk.to_device(np.full(SPINE, wet, np.float32), self.stream)
        self.gsm = sk.to_device(gsm.astype(np.float32), self.stream)
        self.absorbed = sk.zeros(SPINE, f32, self.stream)
        self._pending: sk.DeviceOp | None = None

    def __enter__(self) -> "PressSession":
        self._pending = wicking.launch_async(self.prepared, self.moisture, self.gsm, self.absorbed)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pending is not None:
            self._pending.sync_on(self.stream)
            self._pending = None


def cure_in_press(session: PressSession, adhesive: Adhesive, minutes: float) -> np.ndarray:
    parts = Glue.spread(session.moisture)
    keep = (1.0 - adhesive.cure_rate) ** minutes
    parts, _ = cure(parts, keep).sync_on(session.stream)
    return parts.unpartition().to_numpy(session.stream)


def main() -> None:
    dev = sk.Device.default()
    gsm = np.where(np.arange(SPINE) % 16 < 8, 90.0, 120.0)
    for adhesive in (Adhesive.pva(), Adhesive.wheat_paste()):
        with PressSession(dev, gsm, wet=1.0) as session:
            remaining = cure_in_press(session, adhesive, minutes=20.0)
        absorbed = session.absorbed.to_numpy(session.stream)
        print(f"{adhesive.name:11s} water left {remaining.mean():.3f}, wicked into paper {absorbed.mean():.3f}")


if __name__ == "__main__":
    main()
