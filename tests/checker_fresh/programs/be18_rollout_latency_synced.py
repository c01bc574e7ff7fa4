# fresh-expect: clean
# fresh-note: A policy rollout with one tick of actuation latency overlaps an async SIMT policy launch writing the next-action buffer with a tile physics step that moves the current-action buffer, and swaps the two only after the pending op is synced.
"""Rollout of spring-mass robots under a linear tanh policy with one tick of actuation latency: the policy
computes the next actions (launch_async) while the physics integrates the actions chosen on the last tick."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 16
OBS_DIM = 2


@simt.kernel
@simt.launch_contract(block=32)
def observe(q: Slice[f32], qd: Slice[f32], obs: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(obs):
        return
    v = q[i // 2] if i % 2 == 0 else qd[i // 2]
    if (out := obs.get_mut(idx)) is not None:
        out.set(v)


@simt.kernel
@simt.launch_contract(block=32)
def linear_policy(obs: Slice[f32], weights: Slice[f32], act: DisjointSlice[f32], obs_dim: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(act):
        return
    acc = f32(0.0)
    for k in range(obs_dim):
        acc += weights[k] * obs[i * obs_dim + k]
    if (out := act.get_mut(idx)) is not None:
        out.set(2.0 * acc / (1.0 + abs(acc)))


@tile.kernel
def integrate(q: Partition[f32], qd: Partition[f32], act: Tensor[f32], dt: f32) -> None:
    v = qd.load() + dt * (tile.load_like(act, qd) - 4.0 * q.load())
    qd.store(v)
    q.store(q.load() + dt * v)


class LatentRollout:
    def __init__(self, num_envs: int, device: sk.Device, stream: sk.Stream, dt: float = 0.05) -> None:
        rng = np.random.default_rng(9)
        self.stream, self.dt = stream, dt
        self.q = tile.from_numpy(rng.uniform(-1.0, 1.0, num_envs).astype(np.float32)).sync_on(stream)
        self.qd = tile.zeros((num_envs,), f32).sync_on(stream)
        self.obs = sk.zeros(OBS_DIM * num_envs, f32, stream)
        self.weights = sk.to_device(np.array([-1.5, -0.8], np.float32), stream)
        self.act_cur, self.act_next = sk.zeros(num_envs, f32, stream), sk.zeros(num_envs, f32, stream)
        self.obs_prep = observe.prepare(simt.LaunchConfig1D.for_len(OBS_DIM * num_envs, block=32), device)
        self.policy_prep = linear_policy.prepare(simt.LaunchConfig1D.for_len(num_envs, block=32), device)

    def physics(self, act: sk.DeviceBuffer) -> sk.DeviceBuffer:
        q_part, qd_part, act, _dt = integrate(self.q.partition((TILE,)), self.qd.partition((TILE,)), act, self.dt).sync_on(self.stream)
        self.q, self.qd = q_part.unpartition(), qd_part.unpartition()
        return act

    def tick(self) -> float:
        observe.launch(self.obs_prep, self.stream, self.q, self.qd, self.obs)
        pending = linear_policy.launch_async(self.policy_prep, self.obs, self.weights, self.act_next, OBS_DIM)
        self.act_cur = self.physics(self.act_cur)  # last tick's choice is applied now
        pending.sync_on(self.stream)
        self.act_cur, self.act_next = self.act_next, self.act_cur
        return float(np.abs(self.q.to_numpy(self.stream)).mean())


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rollout = LatentRollout(48, device, stream)
    errors = [rollout.tick() for _ in range(12)]
    print("mean |q| per tick:", " ".join(f"{e:.3f}" for e in errors))


if __name__ == "__main__":
    main()
