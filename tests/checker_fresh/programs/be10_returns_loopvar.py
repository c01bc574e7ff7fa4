# fresh-expect: E0382 at line 61
# fresh-note: Discounted returns are accumulated backward over a trajectory whose per-step reward tensors sit in a dataclass list; the loop rebinds only its loop variables to the tensors handed back by sync_on, so the episode-reward log afterwards reads list items that the launches moved.
"""Backward discounted-return pass over a stored trajectory (tile track), advantages against a shared
per-env baseline computed as one zipped batch of launches, and an episode log."""

from dataclasses import dataclass, field
from typing import Any
import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 8


@tile.kernel
def discount_step(ret: Partition[f32], r: Tensor[f32], done: Tensor[f32], gamma: f32) -> None:
    ret.store(tile.load_like(r, ret) + gamma * (1.0 - tile.load_like(done, ret)) * ret.load())


@tile.kernel
def advantage(adv: Partition[f32], ret: Tensor[f32], baseline: Tensor[f32]) -> None:
    adv.store(tile.load_like(ret, adv) - tile.load_like(baseline, adv))


@dataclass
class Trajectory:
    num_envs: int
    rewards: list[Any] = field(default_factory=list)
    dones: list[Any] = field(default_factory=list)

    def record(self, reward: np.ndarray, done: np.ndarray, stream: sk.Stream) -> None:
        self.rewards.append(tile.from_numpy(reward.astype(np.float32)).sync_on(stream))
        self.dones.append(tile.from_numpy(done.astype(np.float32)).sync_on(stream))


def discounted_returns(traj: Trajectory, bootstrap: np.ndarray, gamma: float, stream: sk.Stream) -> list[np.ndarray]:
    ret = tile.from_numpy(bootstrap.astype(np.float32)).partition((TILE,)).sync_on(stream)
    out = []
    for r, d in zip(reversed(traj.rewards), reversed(traj.dones)):
        ret, r, d, _g = discount_step(ret, r, d, gamma).sync_on(stream)
        out.append(ret.to_numpy(stream))
    return out[::-1]


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(21)
    num_envs, horizon = 32, 6
    traj = Trajectory(num_envs)
    for _ in range(horizon):
        traj.record(rng.normal(1.0, 0.5, num_envs), rng.random(num_envs) < 0.1, stream)
    returns = discounted_returns(traj, rng.normal(size=num_envs), 0.97, stream)

    baseline = tile.from_numpy(np.full(num_envs, 3.0, np.float32)).shared()
    ops = [advantage(tile.zeros((num_envs,), f32).partition((TILE,)), tile.from_numpy(r), baseline) for r in returns]
    advs = [res[0].to_numpy(stream) for res in sk.zip(*ops).sync_on(stream)]
    episode_reward = sum(float(r.to_numpy(stream).sum()) for r in traj.rewards) / num_envs
    print(f"return per env {episode_reward:.3f}; advantage std per step:", [round(float(a.std()), 3) for a in advs])


if __name__ == "__main__":
    main()
