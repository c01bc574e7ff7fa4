# fresh-expect: E0382 at line 52
# fresh-note: A dataclass reward normaliser keeps each env's discounted running return as a tile tensor and updates it with a lazy launch chain; in eval mode it skips storing the handed-back tensor, so the next training call partitions the attribute that the eval call already moved.
"""Reward scaling by the running std of the discounted return, as PPO implementations do it: the per-env
return lives on the device and is updated by a tile kernel every step."""
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

TILE = 8


@tile.kernel
def accumulate(ret: Partition[f32], r: Tensor[f32], dones: Tensor[f32], gamma: f32) -> None:
    keep = 1.0 - tile.load_like(dones, ret)
    ret.store(ret.load() * gamma * keep + tile.load_like(r, ret))


@tile.kernel
def scale(out: Partition[f32], r: Tensor[f32], inv_std: f32) -> None:
    out.store(tile.load_like(r, out) * inv_std)


@dataclass
class RunningMeanStd:
    mean: float = 0.0
    var: float = 1.0
    count: float = 1e-4

    def update(self, x: np.ndarray) -> None:
        batch_mean, batch_var, n = float(x.mean()), float(x.var()), x.size
        delta, total = batch_mean - self.mean, self.count + n
        self.mean += delta * n / total
        self.var = (self.var * self.count + batch_var * n + delta**2 * self.count * n / total) / total
        self.count = total


@dataclass
class RewardNormalizer:
    ret: Any
    gamma: float = 0.99
    stats: RunningMeanStd = field(default_factory=RunningMeanStd)

    def __call__(self, rewards: np.ndarray, dones: np.ndarray, stream: sk.Stream, training: bool = True) -> np.ndarray:
        rew_t, done_t = tile.from_numpy(rewards), tile.from_numpy(dones.astype(np.float32))
        chain = accumulate(self.ret.partition((TILE,)), rew_t, done_t, self.gamma).first().unpartition()
        returns = chain.sync_on(stream)
        if training:  # evaluation must not move the statistics
            self.stats.update(returns.to_numpy(stream))
            self.ret = returns
        inv_std = 1.0 / math.sqrt(self.stats.var + 1e-8)
        out = tile.zeros(rewards.shape, f32).partition((TILE,))
        out, _r, _s = scale(out, tile.from_numpy(rewards), inv_std).sync_on(stream)
        return out.unpartition().to_numpy(stream)


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    num_envs = 24
    rng = np.random.default_rng(11)
    norm = RewardNormalizer(ret=tile.zeros((num_envs,), f32).sync_on(stream))
    schedule = ["train"] * 3 + ["eval"] + ["train"] * 2
    for step, phase in enumerate(schedule):
        rewards = rng.normal(2.0, 3.0, num_envs).astype(np.float32)
        dones = rng.random(num_envs) < 0.05
        scaled = norm(rewards, dones, stream, training=(phase == "train"))
        print(f"step {step} ({phase}): scaled reward std {scaled.std():.3f}")


if __name__ == "__main__":
    main()
