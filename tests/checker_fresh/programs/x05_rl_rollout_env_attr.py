# fresh-expect: E0505 at line 46
# fresh-note: found since: a pending launch_async op a method leaves on its receiver (self.pending) lends an attribute its __init__ made itself (self.obs = sk.zeros(...)) as a device value, so self.env.obs.to(...) after self.env.step_async(...) moves it while borrowed (E0505, both front ends)
"""An RL rollout: the environment steps asynchronously; the agent ships observations to a learner device."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def env_step(state: Slice[f32], action: Slice[f32], obs: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := obs.get_mut(idx)) is not None:
        o.set(state[i] * f32(0.99) + action[i])


class Env:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.state = sk.to_device(np.zeros(n, dtype=np.float32), stream)
        self.obs = sk.zeros(n, f32, stream)
        self.prep = env_step.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
        self.pending: sk.DeviceOp | None = None

    def step_async(self, action: sk.DeviceBuffer[f32]) -> None:
        self.pending = env_step.launch_async(self.prep, self.state, action, self.obs)

    def wait(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None


class Agent:
    def __init__(self, env: Env, learner: sk.Device) -> None:
        self.env = env
        self.learner = learner
        self.learner_stream = learner.new_stream()

    def rollout(self, action: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        self.env.step_async(action)
        shipped = self.env.obs.to(self.learner, self.learner_stream)  # before env.wait()
        self.env.wait()
        return shipped


def main() -> None:
    actor, learner = sk.Device.cpu(0), sk.Device.cpu(1)
    stream = actor.new_stream()
    env = Env(actor, stream, 512)
    agent = Agent(env, learner)
    action = sk.to_device(np.full(512, 0.5, dtype=np.float32), stream)
    obs = agent.rollout(action)
    print(obs.to_numpy(agent.learner_stream)[:3])


if __name__ == "__main__":
    main()
