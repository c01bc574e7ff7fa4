"""Callbacks registered on an object's attribute (`self.callbacks[name] = callback` in a method the module calls
only with its functions) are the functions a loop over the attribute may call (`for callback in
self.callbacks.values()`): one that reads the buffer a pending `launch_async` writes conflicts with that launch:
E0502 at the call (the runtime raises at the callback's launch, called from the marked line)."""

from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 256
Callback = Callable[[sk.Stream, sk.DeviceBuffer], None]


@simt.kernel
@simt.launch_contract(block=128)
def clip(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(x[i], 1.0))


class Trainer:
    def __init__(self, dev: sk.Device) -> None:
        self.stream = dev.new_stream()
        self.prep = clip.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.callbacks: dict[str, Callback] = {}

    def on(self, name: str, callback: Callback) -> None:
        self.callbacks[name] = callback

    def step(self, x: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        op = clip.launch_async(self.prep, x, out)
        for callback in self.callbacks.values():
            callback(self.stream, out)
        op.sync_on(self.stream)


dev = sk.Device.cpu()
trainer = Trainer(dev)
summary = sk.zeros(N, f32, trainer.stream)
summary_prep = clip.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)


def log_summary(stream: sk.Stream, buf: sk.DeviceBuffer) -> None:
    clip.launch(summary_prep, stream, buf, summary)  # expect: E0502


trainer.on("summary", log_summary)
x = sk.to_device(np.linspace(-2, 2, N, dtype=np.float32), trainer.stream)
out = sk.zeros(N, f32, trainer.stream)
trainer.step(x, out)
print(summary.to_numpy(trainer.stream)[-1])
