# fresh-expect: clean
"""An activation registry prepares each kernel once and every layer launches with its own kernel's launch."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def relu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], f32(0.0)))


@simt.kernel
@simt.launch_contract(block=256)
def gelu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = x[i]
    if (o := out.get_mut(idx)) is not None:
        o.set(0.5 * v * (1.0 + v / (1.0 + abs(v))))


ACTIVATIONS = {"relu": relu, "gelu": gelu}
BLOCKS = {"relu": 128, "gelu": 256}


def mlp_activations(h: np.ndarray, dev, stream) -> dict:
    x = sk.to_device(h, stream)
    launches = {
        name: kernel.prepare(simt.LaunchConfig1D.for_len(h.size, block=BLOCKS[name]), dev)
        for name, kernel in ACTIVATIONS.items()
    }
    outputs = {}
    for name, kernel in ACTIVATIONS.items():
        outputs[name] = sk.zeros(h.size, f32, stream)
        kernel.launch(launches[name], stream, x, outputs[name])
    gelu.launch(launches["gelu"], stream, outputs["relu"], outputs["gelu"])
    return {name: out.to_numpy(stream)[:3] for name, out in outputs.items()}


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(mlp_activations(np.linspace(-2, 2, 1024, dtype=np.float32), dev, dev.new_stream()))
