# fresh-expect: clean
"""Config-driven activations: one registry of kernels, and prepared launches built from it under the same names."""

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


KERNELS = {"relu": relu, "leaky": leaky}


def activate(names: list[str], dev: sk.Device) -> list[np.ndarray]:
    stream = dev.new_stream()
    cfg = simt.LaunchConfig1D.for_len(N, block=128)
    launches = {name: kernel.prepare(cfg, dev) for name, kernel in KERNELS.items()}
    x = sk.to_device(np.linspace(-1, 1, N, dtype=np.float32), stream)
    results = []
    for name in names:
        y = sk.zeros(N, f32, stream)
        KERNELS[name].launch(launches[name], stream, x, y)
        results.append(y.to_numpy(stream))
    return results


if __name__ == "__main__":
    print([r[:2] for r in activate(["leaky", "relu"], sk.Device.cpu())])
