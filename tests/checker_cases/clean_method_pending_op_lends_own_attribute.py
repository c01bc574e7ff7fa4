"""The clean twin of `e0505_method_pending_op_lends_own_attribute`: the op the method left in `self.pending` runs
(`self.env.wait()`) before the attribute `__init__` made itself is moved, so nothing borrows it any more."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def step_kernel(action: Slice[f32], obs: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := obs.get_mut(idx)) is not None:
        o.set(action[i] * f32(2.0))


class Env:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.obs = sk.zeros(32, f32, stream)
        self.prep = step_kernel.prepare(simt.LaunchConfig1D.for_len(32, block=32), dev)
        self.pending: sk.DeviceOp | None = None

    def step(self, action: sk.DeviceBuffer[f32]) -> None:
        self.pending = step_kernel.launch_async(self.prep, action, self.obs)

    def wait(self) -> None:
        if self.pending is not None:
            self.pending.sync_on(self.stream)
            self.pending = None


class Agent:
    def __init__(self, env: Env, learner: sk.Device) -> None:
        self.env = env
        self.learner = learner

    def rollout(self, action: sk.DeviceBuffer[f32]) -> sk.DeviceBuffer[f32]:
        self.env.step(action)
        self.env.wait()
        return self.env.obs.to(self.learner, self.learner.new_stream())


def main() -> None:
    actor, learner = sk.Device.cpu(0), sk.Device.cpu(1)
    stream = actor.new_stream()
    agent = Agent(Env(actor, stream), learner)
    agent.rollout(sk.to_device(np.ones(32, dtype=np.float32), stream))


if __name__ == "__main__":
    main()
