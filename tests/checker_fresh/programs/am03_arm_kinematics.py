# fresh-expect: E0382 at line 70
# fresh-note: planar 3-link robot arm jogged along a trajectory (SIMT joint update, tile forward kinematics); the controller unpacks the kinematics launch with `_` for the link-length tensor, so the geometry attribute still names the moved handle on the second step.
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

POSES = 64  # arm configurations tracked at once
JOINTS = 3
T = 16  # poses per tile block
LINKS = (0.5, 0.35, 0.15)


@simt.kernel
@simt.launch_contract(block=64)
def jog(angles: Slice[f32], velocity: Slice[f32], out: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(angles[i] + dt * velocity[i % 3])


@tile.kernel
def forward_kinematics(tip_x: Partition[f32], tip_y: Partition[f32], angles: Tensor[f32], lengths: Tensor[f32]) -> None:
    q = tile.reshape(angles.load((tile.bid(0),), (48,)), (16, 3))
    cum = tile.cumsum(q, axis=1)
    link = tile.reshape(lengths.load((0,), (3,)), (1, 3))
    tip_x.store(tile.sum(link * tile.cos(cum), axis=1))
    tip_y.store(tile.sum(link * tile.sin(cum), axis=1))


@dataclass
class Geometry:
    lengths: Any  # DeviceOp / Tensor of the three link lengths

    @classmethod
    def default(cls) -> Geometry:
        return cls(lengths=tile.from_numpy(np.array(LINKS, np.float32)))


@dataclass
class ArmState:
    angles: sk.DeviceBuffer
    tips: list[np.ndarray] = field(default_factory=list)


class ArmController:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.geometry = Geometry.default()
        self.velocity = sk.to_device(np.array([0.3, -0.2, 0.5], np.float32), stream)
        self.prepared = jog.prepare(simt.LaunchConfig1D.for_len(POSES * JOINTS, block=64), stream.device)

    def advance(self, state: ArmState, dt: float) -> None:
        moved = sk.empty(POSES * JOINTS, f32, self.stream)
        jog.launch(self.prepared, self.stream, state.angles, self.velocity, moved, dt)
        state.angles = moved

    def tip_positions(self, state: ArmState) -> np.ndarray:
        tip_x = tile.zeros((POSES,), f32).partition((T,))
        tip_y = tile.zeros((POSES,), f32).partition((T,))
        op = forward_kinematics(tip_x, tip_y, state.angles, self.geometry.lengths)
        tip_x, tip_y, state.angles, _ = op.sync_on(self.stream)
        xy = np.stack([tip_x.unpartition().to_numpy(self.stream), tip_y.unpartition().to_numpy(self.stream)], axis=1)
        state.tips.append(xy)
        return xy


def reference(angles: np.ndarray) -> np.ndarray:
    cum = np.cumsum(angles.reshape(POSES, JOINTS), axis=1)
    links = np.array(LINKS, np.float32)
    return np.stack([(links * np.cos(cum)).sum(1), (links * np.sin(cum)).sum(1)], axis=1)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    rng = np.random.default_rng(3)
    start = rng.uniform(-np.pi, np.pi, POSES * JOINTS).astype(np.float32)
    arm = ArmController(stream)
    state = ArmState(angles=sk.to_device(start, stream))
    for _step in range(4):
        arm.advance(state, dt=0.05)
        arm.tip_positions(state)
    final = state.angles.to_numpy(stream)
    np.testing.assert_allclose(state.tips[-1], reference(final), atol=1e-4)
    reach = np.linalg.norm(state.tips[-1], axis=1)
    assert np.all(reach <= sum(LINKS) + 1e-5)
    print(f"{len(state.tips)} steps, mean reach {reach.mean():.3f} m")


if __name__ == "__main__":
    main()
