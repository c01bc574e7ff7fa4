"""Normalization layers are built from a name registry (`@register("rmsnorm")` gives the class back).  The
layer-norm `__init__` prepares its launch for `layernorm` by name, and `forward` launches `self.kernel` with it;
the RMS subclass only binds `kernel = rmsnorm`, so an RMS layer runs the inherited `forward` with a launch
prepared for `layernorm` (E0308, as the runtime's `BrandError` says), although no `RMSNorm(...)` call appears: a
method checked on its own may run for every subclass that inherits it with the same prepared launches."""

from collections.abc import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64
LAYERS: dict[str, type["LayerNorm"]] = {}


def register(name: str) -> Callable[[type["LayerNorm"]], type["LayerNorm"]]:
    def deco(cls: type["LayerNorm"]) -> type["LayerNorm"]:
        LAYERS[name] = cls
        return cls

    return deco


@simt.kernel
@simt.launch_contract(block=32)
def layernorm(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] - 1.0)


@simt.kernel
@simt.launch_contract(block=32)
def rmsnorm(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * 0.5)


@register("layernorm")
class LayerNorm:
    kernel = layernorm

    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.prepared = layernorm.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        out = sk.zeros(N, f32, self.stream)
        self.kernel.launch(self.prepared, self.stream, x, out)  # expect: E0308
        return out


@register("rmsnorm")
class RMSNorm(LayerNorm):
    kernel = rmsnorm


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    x = sk.to_device(np.ones(N, np.float32), stream)
    for name in ("layernorm", "rmsnorm"):
        x = LAYERS[name](dev, stream).forward(x)
    print(x.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
