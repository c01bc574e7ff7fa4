# fresh-expect: E0502 at line 58
# the second plate.step() (line 73) launches with self.prev and self.cur after swap() made them one buffer (the runtime raises inside step, line 58, called from 73)
"""1-D heat diffusion on a rod, double-buffered.

A `Plate` keeps the previous and current temperature fields on the device and advances them with an explicit
finite-difference stencil; the driver runs a few steps and reports the centre temperature.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 256


@simt.kernel
@simt.launch_contract(block=128)
def diffuse(src: Slice[f32], dst: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (out := dst.get_mut(idx)) is not None:
        if i == 0 or i == n - 1:
            out.set(src[i])
        else:
            out.set(src[i] + alpha * (src[i - 1] + src[i + 1] - f32(2.0) * src[i]))


@dataclass
class RodConfig:
    length: int = N
    alpha: float = 0.25
    hot_spot: float = 100.0


class Plate:
    def __init__(self, cfg: RodConfig, dev: sk.Device, stream: sk.Stream) -> None:
        self.cfg = cfg
        self.stream = stream
        init = np.zeros(cfg.length, np.float32)
        init[cfg.length // 2] = cfg.hot_spot
        self.prev = sk.to_device(init, stream)
        self.cur = sk.zeros(cfg.length, f32, stream)
        self.launch = diffuse.prepare(simt.LaunchConfig1D.for_len(cfg.length, block=128), dev)
        self.steps = 0

    def swap(self) -> None:
        self.prev = self.cur

    def step(self) -> None:
        diffuse.launch(self.launch, self.stream, self.prev, self.cur, self.cfg.alpha)
        self.swap()
        self.steps += 1

    @property
    def temperature(self) -> np.ndarray:
        return self.prev.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    plate = Plate(RodConfig(), dev, stream)
    history = []
    for _ in range(4):
        plate.step()
        history.append(float(plate.temperature[N // 2]))
    total = float(plate.temperature.sum())
    print(f"after {plate.steps} steps: centre {history[-1]:.3f}, heat {total:.3f}")
    assert abs(total - 100.0) < 1e-3


if __name__ == "__main__":
    main()
