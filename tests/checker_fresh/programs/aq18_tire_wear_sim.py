# fresh-expect: E0133 at line 64
# fresh-note: Race-tire Archard wear over a stint with a ping-pong buffer pair; bug: `stint` wraps the lap loop in `with simt.unsafe():`, but the `launch_unchecked` call is inside `TireModel.step_fast` at line 64, which the caller's unsafe block does not cover (unsafe is lexical).
"""Race tire wear: tread depth of every contact-patch element over a stint, lap by lap (Archard's law).

The first lap is launched through the checked path; once it has validated the configuration, the remaining
laps are run in a benchmark loop through `launch_unchecked` to shave host overhead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def archard(depth: Slice[f32], slip: Slice[f32], pressure: Slice[f32], new_depth: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (d := new_depth.get_mut(idx)) is not None:
        d.set(max(depth[i] - k * pressure[i] * slip[i], f32(0.0)))


@dataclass
class Compound:
    name: str
    wear_coeff: float
    fresh_mm: float = 8.0


class TireModel:
    def __init__(self, compound: Compound, elements: int, device: sk.Device, stream: sk.Stream) -> None:
        self.compound = compound
        self.stream = stream
        self.config = simt.LaunchConfig1D.for_len(elements, block=BLOCK)
        self.prepared = archard.prepare(self.config, device)
        rng = np.random.default_rng(len(compound.name))
        self.slip = sk.to_device(rng.uniform(0.5, 2.0, elements).astype(np.float32), stream)
        self.pressure = sk.to_device(rng.uniform(0.8, 1.2, elements).astype(np.float32), stream)
        self.depth = sk.to_device(np.full(elements, compound.fresh_mm, np.float32), stream)
        self.scratch = sk.zeros(elements, f32, stream)
        self.laps = 0

    def _swap(self) -> None:
        self.depth, self.scratch = self.scratch, self.depth
        self.laps += 1

    def _args(self) -> tuple[object, ...]:
        return self.depth, self.slip, self.pressure, self.scratch, self.compound.wear_coeff

    def step(self) -> None:
        archard.launch(self.prepared, self.stream, *self._args())
        self._swap()

    def step_fast(self) -> None:
        archard.launch_unchecked(self.config, self.stream, *self._args())
        self._swap()

    @property
    def remaining_mm(self) -> float:
        return float(self.depth.to_numpy(self.stream).min())


def stint(model: TireModel, laps: int) -> None:
    model.step()  # checked: validates buffers and configuration once
    with simt.unsafe():  # the remaining laps skip the per-launch checks
        for _ in range(laps - 1):
            model.step_fast()


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    compounds = [Compound("soft", 0.0031), Compound("medium", 0.0019), Compound("hard", 0.0012)]
    for compound in compounds:
        model = TireModel(compound, 2048, device, stream)
        stint(model, laps=25)
        print(f"{compound.name:<6} after {model.laps} laps: {model.remaining_mm:.2f} mm minimum tread")


if __name__ == "__main__":
    main()
