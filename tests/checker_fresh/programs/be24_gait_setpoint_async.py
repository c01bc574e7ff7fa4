# fresh-expect: E0505 at line 46
# fresh-note: A gait controller for a fleet of legged robots overlaps an async SIMT PD-torque launch with the tile kernel that generates the next tick's joint setpoints; the generator step asks the controller to advance its setpoints while the pending torque op still reads them, so the partition inside advance() moves a borrowed buffer.
"""Sinusoidal gait tracking: each control tick a PD kernel turns joint setpoints into torques (launch_async)
while the next tick's setpoints are generated on the device by a tile kernel."""
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

TILE = 16


@simt.kernel
@simt.launch_contract(block=64)
def pd_torque(setpoint: Slice[f32], q: Slice[f32], qd: Slice[f32], tau: DisjointSlice[f32], kp: f32, kd: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(tau):
        return
    if (out := tau.get_mut(idx)) is not None:
        out.set(kp * (setpoint[i] - q[i]) - kd * qd[i])


@tile.kernel
def gait(sp: Partition[f32], phase: f32, amp: f32) -> None:
    size = sp.tile_shape[0]
    joint = tile.iota(size, i32) + tile.bid(0) * size
    sp.store(amp * tile.sin(joint.astype(f32) * 0.7 + phase))


class GaitController:
    def __init__(self, robots: int, joints: int, device: sk.Device, stream: sk.Stream) -> None:
        self.n, self.stream = robots * joints, stream
        self.setpoints = sk.zeros(self.n, f32, stream)
        self.q_dev, self.qd_dev = sk.zeros(self.n, f32, stream), sk.zeros(self.n, f32, stream)
        self.tau = sk.zeros(self.n, f32, stream)
        self.prep = pd_torque.prepare(simt.LaunchConfig1D.for_len(self.n, block=64), device)
        self.gains = (25.0, 3.0)

    def advance(self, tick: int, omega: float = 0.4, amp: float = 0.6) -> None:
        part, _phase, _amp = gait(self.setpoints.partition((TILE,)), omega * tick, amp).sync_on(self.stream)
        self.setpoints = part.unpartition()

    def upload(self, q: np.ndarray, qd: np.ndarray) -> None:
        self.q_dev.copy_from_numpy(q, self.stream)
        self.qd_dev.copy_from_numpy(qd, self.stream)


def control_loop(ctrl: GaitController, ticks: int, dt: float = 0.02) -> Iterator[float]:
    q = np.zeros(ctrl.n, np.float32)
    qd = np.zeros(ctrl.n, np.float32)
    ctrl.advance(0)
    for t in range(ticks):
        ctrl.upload(q, qd)
        pending = pd_torque.launch_async(ctrl.prep, ctrl.setpoints, ctrl.q_dev, ctrl.qd_dev, ctrl.tau, *ctrl.gains)
        target = ctrl.setpoints.to_numpy(ctrl.stream)
        ctrl.advance(t + 1)  # overlap: next tick's targets while the torques are computed
        pending.sync_on(ctrl.stream)
        qd += dt * ctrl.tau.to_numpy(ctrl.stream)
        q += dt * qd
        yield float(np.abs(target - q).mean())


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    ctrl = GaitController(robots=4, joints=12, device=device, stream=stream)
    errors = list(control_loop(ctrl, 15))
    print(f"gait tracking error: first {errors[0]:.3f}, last {errors[-1]:.3f}")


if __name__ == "__main__":
    main()
