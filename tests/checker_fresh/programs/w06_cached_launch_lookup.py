# fresh-expect: E0308 at line 45
# fresh-known-miss: cli,mypy @functools.lru_cache helper returning relu.prepare or leaky.prepare depending on a literal argument (if name == "relu"): leaky.launch(launch_for("relu", n), ...) is not narrowed by the argument, so the branch that returns a leaky launch hides the mismatch
"""Activation kernels looked up by name through a cached helper; one lookup uses the wrong name."""
import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

DEV = sk.Device.cpu()


@simt.kernel
@simt.launch_contract(block=128)
def relu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], f32(0.0)))


@simt.kernel
@simt.launch_contract(block=256)
def leaky(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], x[i] * f32(0.01)))


@functools.lru_cache(maxsize=None)
def launch_for(name: str, n: int):
    if name == "relu":
        return relu.prepare(simt.LaunchConfig1D.for_len(n, block=128), DEV)
    return leaky.prepare(simt.LaunchConfig1D.for_len(n, block=256), DEV)


def activate(kind: str, x: sk.DeviceBuffer[f32], out: sk.DeviceBuffer[f32], stream: sk.Stream) -> None:
    if kind == "relu":
        relu.launch(launch_for("relu", len(x)), stream, x, out)
    else:
        leaky.launch(launch_for("relu", len(x)), stream, x, out)


def main() -> None:
    stream = DEV.new_stream()
    x = sk.to_device(np.linspace(-1, 1, 512, dtype=np.float32), stream)
    out = sk.zeros(512, f32, stream)
    for kind in ("relu", "leaky"):
        activate(kind, x, out, stream)
        print(kind, out.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
