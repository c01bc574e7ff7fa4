# fresh-expect: E0502 at line 67
# fresh-known-miss: cli,mypy an attribute __init__ binds to another attribute only under a config flag (`self.next_obs = sk.zeros(...) if cfg.double_buffered else self.obs`), launched by a method reached through a helper taking the object: a conditional alias a constructor makes is not followed into the methods of an object a parameter holds
# fresh-note: Vectorised cart-pole environments step through a SIMT kernel into a next-observation buffer; the evaluation env is built with double_buffered=False, so its next_obs attribute is the obs buffer itself and the step launch reads and writes one buffer.
"""Vectorised cart-pole: a training env (double-buffered) and a low-memory evaluation env, driven by a
proportional-derivative balance controller computed on the host."""
import math
from dataclasses import dataclass
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

OBS_DIM = 4


@simt.kernel
@simt.launch_contract(block=64)
def cartpole_step(obs: Slice[f32], force: Slice[f32], nxt: DisjointSlice[f32], dt: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i >= len(obs):
        return
    env = i // OBS_DIM
    c = i % OBS_DIM
    base = env * OBS_DIM
    v = obs[i]
    if c == 0:
        v = obs[base] + dt * obs[base + 1]
    elif c == 1:
        v = obs[base + 1] + dt * force[env]
    elif c == 2:
        v = obs[base + 2] + dt * obs[base + 3]
    else:
        theta = obs[base + 2]
        v = obs[base + 3] + dt * (9.8 * math.sin(theta) - force[env] * math.cos(theta))
    if (out := nxt.get_mut(idx)) is not None:
        out.set(v)


@dataclass
class EnvConfig:
    num_envs: int = 16
    dt: float = 0.02
    double_buffered: bool = True
    seed: int = 0


class VecCartPole:
    def __init__(self, cfg: EnvConfig, device: sk.Device, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        n = cfg.num_envs * OBS_DIM
        rng = np.random.default_rng(cfg.seed)
        self.obs = sk.to_device(rng.uniform(-0.05, 0.05, n).astype(np.float32), stream)
        # the evaluation env is small and short-lived: skip the second buffer
        self.next_obs = sk.zeros(n, f32, stream) if cfg.double_buffered else self.obs
        self.force = sk.zeros(cfg.num_envs, f32, stream)
        self.prepared = cartpole_step.prepare(simt.LaunchConfig1D.for_len(n, block=64), device)

    def observe(self) -> np.ndarray:
        return self.obs.to_numpy(self.stream).reshape(self.cfg.num_envs, OBS_DIM)

    def step(self, force: np.ndarray) -> np.ndarray:
        self.force.copy_from_numpy(force.astype(np.float32), self.stream)
        cartpole_step.launch(self.prepared, self.stream, self.obs, self.force, self.next_obs, self.cfg.dt)
        if self.cfg.double_buffered:
            self.obs, self.next_obs = self.next_obs, self.obs
        return self.observe()


def pd_controller(obs: np.ndarray, kp: float = 40.0, kd: float = 8.0) -> np.ndarray:
    return kp * obs[:, 2] + kd * obs[:, 3]


def run_episode(env: VecCartPole, steps: int) -> float:
    obs = env.observe()
    upright = 0.0
    for _ in range(steps):
        obs = env.step(pd_controller(obs))
        upright += float(np.mean(np.abs(obs[:, 2]) < 0.2))
    return upright / steps


def main() -> None:
    device = sk.Device.default()
    stream = device.new_stream()
    train_env = VecCartPole(EnvConfig(num_envs=16), device, stream)
    eval_env = VecCartPole(EnvConfig(num_envs=4, double_buffered=False, seed=7), device, stream)
    train_score = run_episode(train_env, 10)
    eval_score = run_episode(eval_env, 10)
    print(f"upright fraction: train {train_score:.2f}, eval {eval_score:.2f}")


if __name__ == "__main__":
    main()
