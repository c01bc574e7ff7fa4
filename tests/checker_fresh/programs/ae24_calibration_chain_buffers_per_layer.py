# fresh-expect: clean
# idiom: autotuned SIMT kernels run as a chain of layers; output buffers live in a dict keyed by the layer object, one per layer
"""Apply a chain of per-sample calibration layers to a raw sensor trace.

A calibration is a list of layers (offset correction, gain correction, clipping to the sensor's
valid range).  Each layer is an autotuned SIMT kernel taking (input, output, p, q); the chain feeds
every layer's output into the next layer and keeps the intermediate outputs around for inspection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.autotune(configs=[64, 128, 256], key=["x"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def affine(x: Slice[f32], out: DisjointSlice[f32], scale: f32, shift: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * scale + shift)


@simt.autotune(configs=[64, 128, 256], key=["x"], warmup=1, rep=2)
@simt.kernel
@simt.launch_contract(domain=1)
def clip(x: Slice[f32], out: DisjointSlice[f32], lo: f32, hi: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(min(max(x[i], lo), hi))


KERNELS: dict[str, Any] = {"affine": affine, "clip": clip}


@dataclass
class Layer:
    kind: str
    p: float
    q: float


class CalibrationChain:
    def __init__(self, layers: list[Layer], n: int, device: sk.Device) -> None:
        self.layers = layers
        self.stream = device.new_stream()
        self.n = n
        self.outputs: dict[object, sk.DeviceBuffer[f32]] = {}
        for layer in layers:
            self.outputs[id(layer)] = sk.zeros(n, f32, self.stream)

    def run(self, raw: np.ndarray) -> np.ndarray:
        src = sk.to_device(raw.astype(np.float32), self.stream)
        for layer in self.layers:
            dst = self.outputs[id(layer)]
            KERNELS[layer.kind].launch(self.stream, src, dst, layer.p, layer.q)
            src = dst
        return src.to_numpy(self.stream)


def main() -> None:
    rng = np.random.default_rng(6)
    raw = 1000.0 + 40.0 * rng.standard_normal(2000)
    chain = CalibrationChain(
        [Layer("affine", 1.0, -1000.0), Layer("affine", 0.025, 0.0), Layer("clip", -2.0, 2.0)],
        n=raw.size,
        device=sk.Device.cpu(),
    )
    calibrated = chain.run(raw)
    print(f"calibrated: mean {calibrated.mean():+.3f}, min {calibrated.min():+.2f}, max {calibrated.max():+.2f}")


if __name__ == "__main__":
    main()
