# fresh-expect: clean
# prepared launches are keyed by activation name and looked up by the same name in the sorted report loop
"""Activation benchmark: run every registered activation over the same input and compare the outputs."""
from __future__ import annotations

import math

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 512


@simt.kernel
@simt.launch_contract(block=128)
def relu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], f32(0.0)))


@simt.kernel
@simt.launch_contract(block=64)
def gelu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i]
        o.set(f32(0.5) * v * (f32(1.0) + math.tanh(f32(0.7978845) * (v + f32(0.044715) * v * v * v))))


ACTIVATIONS = {"relu": (relu, 128), "gelu": (gelu, 64)}


def plan_all(dev: sk.Device) -> dict[str, simt.PreparedLaunch]:
    return {
        name: kernel.prepare(simt.LaunchConfig1D.for_len(N, block=block), dev)
        for name, (kernel, block) in ACTIVATIONS.items()
    }


def run_all(x: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> dict[str, float]:
    plans = plan_all(dev)
    report = {}
    for name in sorted(ACTIVATIONS):  # deterministic order so the report is stable across runs
        kernel = ACTIVATIONS[name][0]
        out = sk.zeros(N, f32, stream)
        kernel.launch(plans[name], stream, x, out)
        report[name] = float(out.to_numpy(stream).mean())
    return report


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    x = sk.to_device(np.linspace(-3.0, 3.0, N, dtype=np.float32), stream)
    for name, mean in run_all(x, dev, stream).items():
        print(f"{name:>5}: mean {mean:.4f}")


if __name__ == "__main__":
    main()
