# fresh-expect: clean
# 1-D wave equation (leapfrog): displacement and velocity live in the two split_at halves of one state buffer
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, u32
from safekernels.simt import DisjointSlice, Slice, thread

N = 800


@simt.kernel
@simt.launch_contract(block=128, requires=("len(u) >= n", "len(v) >= n"))
def leapfrog(u: Slice[f32], v: Slice[f32], u_next: DisjointSlice[f32], v_next: DisjointSlice[f32],
             c2: f32, dt: f32, n: u32) -> None:
    iu = thread.index_1d()
    i = iu.get()
    iv = thread.index_1d()
    if i > 0 and i < n - 1:
        accel = c2 * (u[i - 1] - 2.0 * u[i] + u[i + 1])
        vel = v[i] + dt * accel
        if (vo := v_next.get_mut(iv)) is not None:
            vo.set(vel)
        if (uo := u_next.get_mut(iu)) is not None:
            uo.set(u[i] + dt * vel)
    else:
        if (vo := v_next.get_mut(iv)) is not None:
            vo.set(0.0)
        if (uo := u_next.get_mut(iu)) is not None:
            uo.set(0.0)  # clamped string ends


class StringState:
    """Two state buffers, each holding [u | v] back to back; steps swap which one is current."""

    def __init__(self, u0: np.ndarray, stream: sk.Stream) -> None:
        self.stream = stream
        self.cur = sk.to_device(np.concatenate([u0, np.zeros_like(u0)]), stream)
        self.nxt = sk.zeros(2 * len(u0), f32, stream)

    def halves(self, buf: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        return buf.split_at(N)

    def energy(self) -> float:
        state = self.cur.to_numpy(self.stream)
        u, v = state[:N], state[N:]
        return float(0.5 * (v**2).sum() + 0.5 * (np.diff(u) ** 2).sum())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = np.linspace(0, 1, N, dtype=np.float32)
    pluck = np.exp(-((x - 0.3) ** 2) / 0.002).astype(np.float32)
    state = StringState(pluck, stream)
    prepared = leapfrog.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    e0 = state.energy()
    for step in range(40):
        u, v = state.halves(state.cur)
        u_next, v_next = state.halves(state.nxt)
        leapfrog.launch(prepared, stream, u, v, u_next, v_next, 0.25, 1.0, N)
        state.cur, state.nxt = state.nxt, state.cur
        if step % 10 == 9:
            print(f"step {step + 1}: energy ratio {state.energy() / e0:.4f}")
    final = state.cur.to_numpy(stream)[:N]
    print("peak displacement now at x =", round(float(x[int(np.argmax(np.abs(final)))]), 3))


if __name__ == "__main__":
    main()
