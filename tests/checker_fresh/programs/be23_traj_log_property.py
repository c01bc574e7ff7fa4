# fresh-expect: clean
# fresh-note: A trajectory store fills observation and action buffers through slice views, computes rewards with a SIMT kernel and clips them with a tile kernel that moves the reward buffer; the logging dict is a property that reads the current attributes, so the dump sees the tensor stored back after the clip.
"""Trajectory storage for a batch of point-mass robots: per-step slices of flat SIMT buffers, a reward pass
on the device, reward clipping in the tile track, and a flat dump for the replay writer."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition

TILE = 32


@simt.kernel
@simt.launch_contract(block=64)
def reward_fn(obs: Slice[f32], act: Slice[f32], rew: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(rew):
        return
    if (out := rew.get_mut(idx)) is not None:
        out.set(-obs[i] * obs[i] - 0.1 * act[i] * act[i] + 1.0)


@tile.kernel
def clip_rewards(rew: Partition[f32], lo: f32, hi: f32) -> None:
    rew.store(tile.minimum(tile.maximum(rew.load(), lo), hi))


class TrajectoryStore:
    def __init__(self, horizon: int, num_envs: int, device: sk.Device, stream: sk.Stream) -> None:
        self.horizon, self.num_envs, self.stream = horizon, num_envs, stream
        n = horizon * num_envs
        self.obs = sk.zeros(n, f32, stream)
        self.actions = sk.zeros(n, f32, stream)
        self.rewards = sk.zeros(n, f32, stream)
        self.reward_prep = reward_fn.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)

    @property
    def log_fields(self) -> dict[str, sk.DeviceBuffer]:
        return {"obs": self.obs, "act": self.actions, "rew": self.rewards}

    def record(self, t: int, obs: np.ndarray, act: np.ndarray) -> None:
        lo, hi = t * self.num_envs, (t + 1) * self.num_envs
        self.obs[lo:hi].copy_from_numpy(obs, self.stream)
        self.actions[lo:hi].copy_from_numpy(act, self.stream)

    def finalize(self, clip: float) -> None:
        reward_fn.launch(self.reward_prep, self.stream, self.obs, self.actions, self.rewards)
        part, _lo, _hi = clip_rewards(self.rewards.partition((TILE,)), -clip, clip).sync_on(self.stream)
        self.rewards = part.unpartition()

    def dump(self) -> dict[str, np.ndarray]:
        shape = (self.horizon, self.num_envs)
        return {name: buf.to_numpy(self.stream).reshape(shape) for name, buf in self.log_fields.items()}


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(4)
    horizon, num_envs = 10, 12
    store = TrajectoryStore(horizon, num_envs, device, stream)
    x = rng.uniform(-2.0, 2.0, num_envs).astype(np.float32)
    for t in range(horizon):
        a = np.clip(-1.5 * x + rng.normal(0.0, 0.2, num_envs), -1.0, 1.0).astype(np.float32)
        store.record(t, x, a)
        x = (x + 0.3 * a).astype(np.float32)
    store.finalize(clip=0.5)
    dumped = store.dump()
    print({k: v.shape for k, v in dumped.items()}, "mean reward", float(dumped["rew"].mean()))


if __name__ == "__main__":
    main()
