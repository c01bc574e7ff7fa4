# fresh-expect: E0382 at line 68
# fresh-known-miss: cli,mypy a registry attribute keeps the old handle of a buffer another method moved and replaced: the items of attribute containers are not followed across methods
# fresh-note: aquifer pumping-test drawdown; each well's head buffer is moved by partition into a tile recovery launch and the well gets the unpartitioned tensor back, but the observation registry still holds the old, moved handle and the report reads it.
from __future__ import annotations
import math
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

NODES = 128


@simt.kernel
@simt.launch_contract(block=64)
def theis_drawdown(radius: Slice[f32], head: DisjointSlice[f32], q_over_4pit: f32, u_scale: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (h := head.get_mut(idx)) is not None:
        u = radius[i] * radius[i] * u_scale
        h.set(q_over_4pit * (-f32(0.5772) - math.log(u) + u))


@tile.kernel
def recover(head: Partition[f32], fraction: f32) -> None:
    head.store(head.load() * (1.0 - fraction))


@dataclass
class Well:
    name: str
    pumping_m3_d: float
    head: sk.DeviceBuffer


class PumpingTest:
    def __init__(self, dev: sk.Device, stream: sk.Stream, transmissivity: float) -> None:
        self.stream = stream
        self.t = transmissivity
        self.plan = theis_drawdown.prepare(simt.LaunchConfig1D.for_len(NODES, block=64), dev)
        self.radius = sk.to_device(np.linspace(5.0, 400.0, NODES).astype(np.float32), stream)
        self.wells: list[Well] = []
        self.observation: dict[str, sk.DeviceBuffer] = {}

    def add_well(self, name: str, q: float) -> Well:
        well = Well(name, q, sk.zeros(NODES, f32, self.stream))
        self.wells.append(well)
        self.observation[name] = well.head
        return well

    def pump(self, hours: float) -> None:
        for well in self.wells:
            coeff = well.pumping_m3_d / (4.0 * math.pi * self.t)
            u_scale = 2e-4 / (4.0 * self.t * hours / 24.0)
            theis_drawdown.launch(self.plan, self.stream, self.radius, well.head, coeff, u_scale)

    def recovery(self, fraction: float) -> None:
        for well in self.wells:
            part, _ = recover(well.head.partition((32,)), fraction).sync_on(self.stream)
            well.head = part.unpartition()

    def report(self) -> dict[str, float]:
        return {name: float(buf.to_numpy(self.stream)[0]) for name, buf in self.observation.items()}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    test = PumpingTest(dev, stream, transmissivity=250.0)
    test.add_well("PW-1", 1200.0)
    test.add_well("PW-2", 650.0)
    test.pump(hours=48.0)
    print("drawdown at 5 m:", {k: round(v, 2) for k, v in test.report().items()})
    test.recovery(fraction=0.35)
    print("after recovery:", {k: round(v, 2) for k, v in test.report().items()})


if __name__ == "__main__":
    main()
