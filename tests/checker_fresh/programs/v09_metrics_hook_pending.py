# fresh-expect: E0502 at line 49
# fresh-note: found since: a loop over an attribute registry of functions (`self.hooks.append(hook)`) calls each
"""A metrics hook system: callbacks registered on a runner read the step's output buffer."""
from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024
Hook = Callable[[sk.Stream, sk.DeviceBuffer], None]


@simt.kernel
@simt.launch_contract(block=128)
def relu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], 0.0))


class Runner:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prep = relu.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.hooks: list[Hook] = []

    def register_hook(self, hook: Hook) -> None:
        self.hooks.append(hook)

    def step(self, x: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        op = relu.launch_async(self.prep, x, out)
        for hook in self.hooks:  # hooks were meant to run after the op, as in the eager version
            hook(self.stream, out)
        op.sync_on(self.stream)


dev = sk.Device.cpu()
runner = Runner(dev)
stats = sk.zeros(N, f32, runner.stream)
stats_prep = relu.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)


def activation_stats(stream: sk.Stream, buf: sk.DeviceBuffer) -> None:
    relu.launch(stats_prep, stream, buf, stats)


runner.register_hook(activation_stats)
x = sk.to_device(np.linspace(-1, 1, N, dtype=np.float32), runner.stream)
out = sk.zeros(N, f32, runner.stream)
runner.step(x, out)
print(stats.to_numpy(runner.stream)[-1])
