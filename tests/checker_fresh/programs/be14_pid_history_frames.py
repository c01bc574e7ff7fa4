# fresh-expect: clean
# fresh-note: PID joint controllers for a fleet of arms keep a packed history of timestamped measurement frames, shifted by a SIMT copy kernel between views that the frame helper offsets by the full frame stride, so source and destination frames never overlap.
"""Fleet PID control: each tick the newest joint angles are pushed into a packed frame history (n angles
followed by the frame's timestamp), then one SIMT launch computes every joint's torque."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def copy_frame(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set(src[i])


@simt.kernel
@simt.launch_contract(block=32)
def pid_law(now: Slice[f32], prev: Slice[f32], target: Slice[f32], integ_in: Slice[f32],
            integ_out: DisjointSlice[f32], torque: DisjointSlice[f32], kp: f32, ki: f32, kd: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(target)
    if i >= n:
        return
    dt = now[n] - prev[n]
    err = target[i] - now[i]
    integ = integ_in[i] + err * dt
    rate = f32(0.0)
    if dt > 0.0:
        rate = (now[i] - prev[i]) / dt
    if (acc := integ_out.get_mut(idx)) is not None:
        acc.set(integ)
    j = thread.index_1d()
    if (tau := torque.get_mut(j)) is not None:
        tau.set(kp * err + ki * integ - kd * rate)


class JointHistory:
    def __init__(self, n: int, frames: int, device: sk.Device, stream: sk.Stream) -> None:
        self.n, self.frames, self.stream = n, frames, stream
        self.stride = n + 1  # n joint angles, then the frame's timestamp
        self.buf = sk.zeros(frames * self.stride, f32, stream)
        self.copy_prep = copy_frame.prepare(simt.LaunchConfig1D.for_len(self.stride, block=32), device)

    def frame(self, k: int) -> sk.DeviceBuffer:
        start = k * self.stride
        return self.buf.view(start, start + self.stride)

    def push(self, angles: np.ndarray, t: float) -> None:
        for k in range(self.frames - 1, 0, -1):  # oldest first, so nothing is overwritten before it is copied
            copy_frame.launch(self.copy_prep, self.stream, self.frame(k - 1), self.frame(k))
        self.frame(0).copy_from_numpy(np.append(angles, t).astype(np.float32), self.stream)


class PIDBank:
    def __init__(self, robots: int, joints: int, device: sk.Device, stream: sk.Stream) -> None:
        n = robots * joints
        self.stream = stream
        self.gains = (12.0, 0.5, 1.5)
        self.hist = JointHistory(n, 3, device, stream)
        self.target = sk.to_device(np.tile(np.linspace(-0.5, 0.5, joints), robots).astype(np.float32), stream)
        self.integ, self.integ_next = sk.zeros(n, f32, stream), sk.zeros(n, f32, stream)
        self.torque = sk.zeros(n, f32, stream)
        self.pid_prep = pid_law.prepare(simt.LaunchConfig1D.for_len(n, block=32), device)

    def control(self, angles: np.ndarray, t: float) -> np.ndarray:
        self.hist.push(angles, t)
        pid_law.launch(self.pid_prep, self.stream, self.hist.frame(0), self.hist.frame(1), self.target,
                       self.integ, self.integ_next, self.torque, *self.gains)
        self.integ, self.integ_next = self.integ_next, self.integ
        return self.torque.to_numpy(self.stream)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    robots, joints, dt = 4, 6, 0.05
    bank = PIDBank(robots, joints, device, stream)
    angles = np.zeros(robots * joints, np.float32)
    vel = np.zeros_like(angles)
    target = bank.target.to_numpy(stream)
    for tick in range(8):
        tau = bank.control(angles, (tick + 1) * dt)
        vel += dt * (tau - 0.8 * vel)
        angles += dt * vel
    print(f"mean tracking error after 8 ticks: {np.abs(target - angles).mean():.4f}")


if __name__ == "__main__":
    main()
