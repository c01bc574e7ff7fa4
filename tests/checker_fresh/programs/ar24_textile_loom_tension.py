# fresh-expect: clean
# fresh-note: weaving loom yarn tension; an async imbalance launch reads the warp and weft halves of the tension buffer through split_at views of the tension tensor's as_buffer handle, and each shed's chained ops are synced before the whole buffer is partitioned for the tile damping step.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

YARNS = 64  # per half: warp yarns then weft picks


@simt.kernel
@simt.launch_contract(block=32)
def imbalance(warp_t: Slice[f32], weft_t: Slice[f32], out: DisjointSlice[f32], nominal: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set((warp_t[i] - weft_t[i]) / nominal)


@tile.kernel
def damp(tension: Partition[f32], nominal: f32, k: f32) -> None:
    t = tension.load()
    tension.store(nominal + (t - nominal) * k)


@dataclass
class ShedLog:
    worst: list[float] = field(default_factory=list)


class Loom:
    def __init__(self, dev: sk.Device, stream: sk.Stream, nominal_cn: float) -> None:
        self.stream = stream
        self.nominal = nominal_cn
        self.plan = imbalance.prepare(simt.LaunchConfig1D.for_len(YARNS, block=32), dev)
        rng = np.random.default_rng(23)
        self.tension = tile.from_numpy(rng.normal(nominal_cn, 6.0, 2 * YARNS).astype(np.float32)).sync_on(stream)

    def start_reading(self) -> sk.DeviceOp:
        warp_half, weft_half = self.tension.as_buffer().split_at(YARNS)
        out = sk.zeros(YARNS, f32, self.stream)
        op = imbalance.launch_async(self.plan, warp_half, weft_half, out, self.nominal)
        return op.then(lambda args: float(np.abs(args[2].to_numpy(self.stream)).max()))

    def damp_step(self, k: float) -> None:
        part = self.tension.partition((YARNS,))
        part, _, _ = damp(part, self.nominal, k).sync_on(self.stream)
        self.tension = part.unpartition()

    def mean_tension(self) -> float:
        return float(self.tension.to_numpy(self.stream).mean())


def weave(loom: Loom, sheds: int, log: ShedLog) -> None:
    for shed in range(sheds):
        reading = loom.start_reading()
        log.worst.append(reading.sync_on(loom.stream))
        loom.damp_step(0.8 if shed < sheds // 2 else 0.95)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    loom = Loom(dev, stream, nominal_cn=45.0)
    log = ShedLog()
    weave(loom, 6, log)
    for shed, worst in enumerate(log.worst):
        print(f"shed {shed}: worst imbalance {100 * worst:.1f} %")
    print(f"mean tension after weaving {loom.mean_tension():.2f} cN")


if __name__ == "__main__":
    main()
