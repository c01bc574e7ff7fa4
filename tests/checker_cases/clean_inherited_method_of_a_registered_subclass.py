"""The clean twin of `e0308_inherited_method_of_a_registered_subclass`: the layer-norm `__init__` prepares its
launch for `self.kernel`, so each registered class's layers launch their own kernel with their own launch."""

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
        self.prepared = self.kernel.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)

    def forward(self, x: sk.DeviceBuffer) -> sk.DeviceBuffer:
        out = sk.zeros(N, f32, self.stream)
        self.kernel.launch(self.prepared, self.stream, x, out)
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
