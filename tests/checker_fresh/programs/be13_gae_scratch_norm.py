# fresh-expect: clean
# fresh-note: A PPO rollout storage keeps its buffers in a dict and computes GAE advantages, returns and normalised advantages with SIMT kernels; when raw advantages are not kept it normalises into a setdefault scratch buffer and swaps the dict entries afterwards, so no launch reads and writes one buffer.
"""Generalised advantage estimation over a (T, E) rollout stored time-major in flat SIMT buffers."""
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def gae(rewards: Slice[f32], values: Slice[f32], dones: Slice[f32], adv: DisjointSlice[f32],
        num_envs: i32, gamma: f32, lam: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(rewards)
    if i >= n:
        return
    horizon = n // num_envs
    acc = f32(0.0)
    weight = f32(1.0)
    for k in range(i // num_envs, horizon):
        j = k * num_envs + i % num_envs
        alive = 1.0 - dones[j]
        delta = rewards[j] + gamma * values[j + num_envs] * alive - values[j]
        acc += weight * delta
        weight = weight * gamma * lam * alive
    if (out := adv.get_mut(idx)) is not None:
        out.set(acc)


@simt.kernel
@simt.launch_contract(block=64)
def add_values(adv: Slice[f32], values: Slice[f32], ret: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := ret.get_mut(idx)) is not None:
        out.set(adv[i] + values[i])


@simt.kernel
@simt.launch_contract(block=64)
def normalize(src: Slice[f32], dst: DisjointSlice[f32], mean: f32, inv_std: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dst.get_mut(idx)) is not None:
        out.set((src[i] - mean) * inv_std)


@dataclass
class PPOConfig:
    horizon: int = 8
    num_envs: int = 6
    gamma: float = 0.99
    lam: float = 0.95
    keep_raw_advantages: bool = False


class RolloutStorage:
    def __init__(self, cfg: PPOConfig, device: sk.Device, stream: sk.Stream) -> None:
        self.cfg, self.stream = cfg, stream
        n = cfg.horizon * cfg.num_envs
        self.bufs = {name: sk.zeros(n, f32, stream) for name in ("rewards", "dones", "advantages", "returns")}
        self.bufs["values"] = sk.zeros(n + cfg.num_envs, f32, stream)
        if cfg.keep_raw_advantages:
            self.bufs["adv_norm"] = sk.zeros(n, f32, stream)
        config = simt.LaunchConfig1D.for_len(n, block=64)
        self.launches = {k.__name__: k.prepare(config, device) for k in (gae, add_values, normalize)}

    def insert(self, name: str, host: np.ndarray) -> None:
        self.bufs[name].copy_from_numpy(host.astype(np.float32).ravel(), self.stream)

    def compute(self) -> dict[str, np.ndarray]:
        b, s, cfg = self.bufs, self.stream, self.cfg
        gae.launch(self.launches["gae"], s, b["rewards"], b["values"], b["dones"], b["advantages"],
                   cfg.num_envs, cfg.gamma, cfg.lam)
        add_values.launch(self.launches["add_values"], s, b["advantages"], b["values"], b["returns"])
        raw = b["advantages"].to_numpy(s)
        # normalise into a second buffer; without raw logging it is recycled as the advantages buffer
        target = b["adv_norm"] if "adv_norm" in b else b.setdefault("scratch", sk.zeros(raw.size, f32, s))
        normalize.launch(self.launches["normalize"], s, b["advantages"], target, float(raw.mean()), float(1.0 / (raw.std() + 1e-8)))
        if not cfg.keep_raw_advantages:
            b["advantages"], b["scratch"] = target, b["advantages"]
        return {"adv": target.to_numpy(s), "ret": b["returns"].to_numpy(s), "raw": raw}


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    rng = np.random.default_rng(3)
    for keep in (True, False):
        cfg = PPOConfig(keep_raw_advantages=keep)
        storage = RolloutStorage(cfg, device, stream)
        storage.insert("rewards", rng.normal(size=(cfg.horizon, cfg.num_envs)))
        storage.insert("values", rng.normal(size=(cfg.horizon + 1, cfg.num_envs)))
        storage.insert("dones", rng.random((cfg.horizon, cfg.num_envs)) < 0.1)
        out = storage.compute()
        print(f"keep_raw={keep}: adv mean {out['adv'].mean():+.3f}, std {out['adv'].std():.3f}")


if __name__ == "__main__":
    main()
