# fresh-expect: E0308 at line 49
# A helper returns a dict comprehension of prepared launches over a module-level registry.
"""An activation registry prepares each kernel once; the GELU layer picks the launch by the wrong key."""

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


def build_launches(n: int, dev) -> dict:
    return {
        name: kernel.prepare(simt.LaunchConfig1D.for_len(n, block=BLOCKS[name]), dev)
        for name, kernel in ACTIVATIONS.items()
    }


def mlp_activations(h: np.ndarray, dev, stream) -> tuple:
    x = sk.to_device(h, stream)
    a1 = sk.zeros(h.size, f32, stream)
    a2 = sk.zeros(h.size, f32, stream)
    launches = build_launches(h.size, dev)
    relu.launch(launches["relu"], stream, x, a1)
    gelu.launch(launches["relu"], stream, x, a2)  # BUG: should be launches["gelu"]
    return a1.to_numpy(stream), a2.to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    r, g = mlp_activations(np.linspace(-2, 2, 1024, dtype=np.float32), dev, dev.new_stream())
    print(r[:3], g[:3])
