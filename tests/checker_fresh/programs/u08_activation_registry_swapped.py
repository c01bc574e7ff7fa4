# fresh-expect: E0308 at line 46
"""Config-driven activation layer: kernels and their prepared launches are looked up by name from registries."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 1024


@simt.kernel
@simt.launch_contract(block=128)
def relu(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] if x[i] > 0.0 else 0.0)


@simt.kernel
@simt.launch_contract(block=128)
def leaky(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] if x[i] > 0.0 else 0.01 * x[i])


def build_registry(dev: sk.Device) -> dict:
    cfg = simt.LaunchConfig1D.for_len(N, block=128)
    return {
        "relu": relu.prepare(cfg, dev),
        "leaky": relu.prepare(cfg, dev),
    }


def activate(config: dict, dev: sk.Device) -> np.ndarray:
    stream = dev.new_stream()
    launches = build_registry(dev)
    x = sk.to_device(np.linspace(-1, 1, N, dtype=np.float32), stream)
    y = sk.zeros(N, f32, stream)
    if config["activation"] == "leaky":
        leaky.launch(launches["leaky"], stream, x, y)
    else:
        relu.launch(launches["relu"], stream, x, y)
    return y.to_numpy(stream)


if __name__ == "__main__":
    print(activate({"activation": "leaky"}, sk.Device.cpu())[:3])
