# fresh-expect: clean
"""A plugin registry: a decorator registers each filter with its kernel; launches are prepared per plugin."""
from typing import Any, Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

REGISTRY: dict[str, Any] = {}


def plugin(name: str) -> Callable[[Any], Any]:
    def register(kernel: Any) -> Any:
        REGISTRY[name] = kernel
        return kernel
    return register


@plugin("gamma")
@simt.kernel
@simt.launch_contract(block=128)
def gamma(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * src[i])


@plugin("invert")
@simt.kernel
@simt.launch_contract(block=256)
def invert(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(f32(1.0) - src[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 512
    block = {"gamma": 128, "invert": 256}
    prepared = {name: k.prepare(simt.LaunchConfig1D.for_len(n, block=block[name]), dev) for name, k in REGISTRY.items()}
    img = sk.to_device(np.linspace(0, 1, n, dtype=np.float32), stream)
    for name in ("gamma", "invert"):
        out = sk.zeros(n, f32, stream)
        REGISTRY[name].launch(prepared[name], stream, img, out)
        img = out
    print(img.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
