# fresh-expect: clean
# fresh-note: A random-shooting MPC controller for a fleet of double-integrator robots prepares one launch per horizon in a dict comprehension that zips the horizon names sorted by length with the kernels in the same order, so each tick launches its kernel with its own prepared launch.
"""Sampling-based MPC: every robot scores K random action sequences with a short horizon each tick, and with
a long horizon every third tick (a replan); the cheapest sequence's first action is applied."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CANDIDATES = 16
H_SHORT, H_LONG = 5, 12
HORIZONS = {"long": H_LONG, "short": H_SHORT}


@simt.device
def stage_cost(pos: f32, goal: f32, u: f32) -> f32:
    return (pos - goal) * (pos - goal) + 0.01 * u * u


@simt.kernel
@simt.launch_contract(block=64)
def cost_short(actions: Slice[f32], state: Slice[f32], goal: Slice[f32], cost: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(cost):
        return
    r = i // CANDIDATES
    pos, vel, acc = state[2 * r], state[2 * r + 1], f32(0.0)
    for t in range(H_SHORT):
        u = actions[i * H_LONG + t]
        vel = vel + dt * u
        pos = pos + dt * vel
        acc += stage_cost(pos, goal[r], u)
    if (out := cost.get_mut(idx)) is not None:
        out.set(acc)


@simt.kernel
@simt.launch_contract(block=64)
def cost_long(actions: Slice[f32], state: Slice[f32], goal: Slice[f32], cost: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(cost):
        return
    r = i // CANDIDATES
    pos, vel, acc = state[2 * r], state[2 * r + 1], f32(0.0)
    for t in range(H_LONG):
        u = actions[i * H_LONG + t]
        vel = vel + dt * u
        pos = pos + dt * vel
        acc += stage_cost(pos, goal[r], u)
    if (out := cost.get_mut(idx)) is not None:
        out.set(acc + 2.0 * vel * vel)


class ShootingMPC:
    def __init__(self, robots: int, device: sk.Device, stream: sk.Stream, dt: float = 0.1) -> None:
        self.robots, self.stream, self.dt = robots, stream, dt
        self.rng = np.random.default_rng(2)
        config = simt.LaunchConfig1D.for_len(robots * CANDIDATES, block=64)
        self.launches = {name: k.prepare(config, device) for name, k in zip(sorted(HORIZONS, key=HORIZONS.get), (cost_short, cost_long))}
        self.actions = sk.zeros(robots * CANDIDATES * H_LONG, f32, stream)
        self.state = sk.zeros(2 * robots, f32, stream)
        self.goal = sk.to_device(np.linspace(-1.0, 1.0, robots).astype(np.float32), stream)
        self.cost = sk.zeros(robots * CANDIDATES, f32, stream)

    def plan(self, state: np.ndarray, replan: bool) -> np.ndarray:
        samples = self.rng.normal(0.0, 1.5, (self.robots, CANDIDATES, H_LONG)).astype(np.float32)
        self.actions.copy_from_numpy(samples.ravel(), self.stream)
        self.state.copy_from_numpy(state.ravel(), self.stream)
        args = (self.actions, self.state, self.goal, self.cost, self.dt)
        if replan:
            cost_long.launch(self.launches["long"], self.stream, *args)
        else:
            cost_short.launch(self.launches["short"], self.stream, *args)
        best = self.cost.to_numpy(self.stream).reshape(self.robots, CANDIDATES).argmin(axis=1)
        return samples[np.arange(self.robots), best, 0]


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    robots = 6
    mpc = ShootingMPC(robots, device, stream)
    state = np.zeros((robots, 2), np.float32)
    for tick in range(7):
        u = mpc.plan(state, replan=(tick % 3 == 2))
        state[:, 1] += mpc.dt * u
        state[:, 0] += mpc.dt * state[:, 1]
    print("final distance to goal:", np.round(np.abs(state[:, 0] - mpc.goal.to_numpy(stream)), 3))


if __name__ == "__main__":
    main()
