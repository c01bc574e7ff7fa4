# fresh-expect: E0308 at line 42
# fresh-note: found since: a subclass inherits what its base's `__init__` leaves on `self` (its prepared launches' brands)
"""Layer norms held in module objects; an RMSNorm subclass swaps the kernel but reuses the parent's launch."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def center(x: Slice[f32], mean: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] - mean[0])


@simt.kernel
@simt.launch_contract(block=64)
def rms_scale(x: Slice[f32], gain: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * gain[i])


class LayerNorm:
    def __init__(self, dev: sk.Device, stream: sk.Stream, width: int) -> None:
        self.width = width
        self.prepared = center.prepare(simt.LaunchConfig1D.for_len(width, block=128), dev)
        self.param = sk.zeros(width, f32, stream)

    def apply(self, stream: sk.Stream, x: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        center.launch(self.prepared, stream, x, self.param, out)


class RMSNorm(LayerNorm):
    def apply(self, stream: sk.Stream, x: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
        rms_scale.launch(self.prepared, stream, x, self.param, out)


dev = sk.Device.cpu()
stream = dev.new_stream()
norms = [LayerNorm(dev, stream, 512), RMSNorm(dev, stream, 512)]
x = sk.to_device(np.linspace(-1.0, 1.0, 512, dtype=np.float32), stream)
outs = [sk.zeros(512, f32, stream) for _ in norms]
for norm, out in zip(norms, outs, strict=True):
    norm.apply(stream, x, out)
print([o.to_numpy(stream)[0] for o in outs])
