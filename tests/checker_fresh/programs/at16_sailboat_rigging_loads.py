# fresh-expect: clean
# fresh-note: Sailboat rigging load estimator that computes shroud tensions with a tile kernel over a partitioned buffer, rebinds the handed-back tensors, and lends the 1-D result to a SIMT safety-margin kernel through as_buffer.
"""Sailing yacht rigging: shroud and stay tensions across a wind sweep, with breaking-load margins."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 32
BLOCK = 64


@tile.kernel
def tension(load: Partition[f32], wind: Tensor[f32], heel_arm: Tensor[f32], pretension: f32) -> None:
    w = tile.load_like(wind, load)
    arm = tile.load_like(heel_arm, load)
    load.store(pretension + 2.4 * w * w * arm)


@simt.kernel
@simt.launch_contract(block=BLOCK)
def margin(load_n: Slice[f32], breaking_n: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(breaking_n[i] / load_n[i])


@dataclass
class Rig:
    wires: list[str]
    breaking_kn: list[float]
    arm_m2: list[float]

    def per_case(self, cases: int) -> tuple[np.ndarray, np.ndarray]:
        arm = np.tile(np.asarray(self.arm_m2, np.float32), cases)
        breaking = np.tile(np.asarray(self.breaking_kn, np.float32) * 1000.0, cases)
        return arm, breaking


def evaluate(rig: Rig, winds_ms: np.ndarray, dev: sk.Device, stream: sk.Stream) -> np.ndarray:
    cases = winds_ms.size
    n = cases * len(rig.wires)
    arm, breaking = rig.per_case(cases)
    wind = tile.from_numpy(np.repeat(winds_ms, len(rig.wires)).astype(np.float32))
    loads = sk.zeros(n, f32, stream).partition((TILE,))
    loads, wind, arm_t, _ = tension(loads, wind, tile.from_numpy(arm), 2500.0).sync_on(stream)
    load_tensor = loads.unpartition()
    ratios = sk.zeros(n, f32, stream)
    prepared = margin.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCK), dev)
    margin.launch(prepared, stream, load_tensor.as_buffer(), sk.to_device(breaking, stream), ratios)
    return ratios.to_numpy(stream).reshape(cases, len(rig.wires))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rig = Rig(
        wires=["cap shroud", "lower shroud", "forestay", "backstay"],
        breaking_kn=[68.0, 52.0, 75.0, 60.0],
        arm_m2=[18.0, 11.0, 14.5, 9.0],
    )
    winds = np.arange(4.0, 24.0, 2.0, dtype=np.float32)
    ratios = evaluate(rig, winds, dev, stream)
    for row, wind in zip(ratios, winds):
        weakest = int(np.argmin(row))
        flag = "  REEF" if row[weakest] < 3.0 else ""
        print(f"{wind:4.0f} m/s: weakest {rig.wires[weakest]:12s} safety factor {row[weakest]:5.2f}{flag}")


if __name__ == "__main__":
    main()
