# fresh-expect: E0133 at line 72
# fresh-note: Lotka-Volterra predator-prey model over a ring of habitat patches with migration; the hot loop wraps calls of a helper method in `with simt.unsafe():`, but the helper's own launch_unchecked is outside any unsafe block of its function, which the lexical rule does not cover.
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PATCHES = 96


@simt.kernel
@simt.launch_contract(block=32)
def lv_step(prey: Slice[f32], pred: Slice[f32], prey_out: DisjointSlice[f32], pred_out: DisjointSlice[f32],
            a: f32, b: f32, c: f32, d: f32, mig: f32, dt: f32) -> None:
    first = thread.index_1d()
    second = thread.index_1d()
    i = first.get()
    left = (i + PATCHES - 1) % PATCHES
    right = (i + 1) % PATCHES
    x = prey[i]
    y = pred[i]
    dx = a * x - b * x * y + mig * (prey[left] + prey[right] - f32(2.0) * x)
    dy = d * x * y - c * y + mig * (pred[left] + pred[right] - f32(2.0) * y)
    if (o := prey_out.get_mut(first)) is not None:
        o.set(max(x + dt * dx, f32(0.0)))
    if (q := pred_out.get_mut(second)) is not None:
        q.set(max(y + dt * dy, f32(0.0)))


@dataclass
class Rates:
    growth: float = 1.1
    predation: float = 0.4
    death: float = 0.4
    conversion: float = 0.1
    migration: float = 0.05


class Landscape:
    def __init__(self, dev: sk.Device, stream: sk.Stream, rates: Rates, dt: float) -> None:
        self.stream = stream
        self.rates = rates
        self.dt = dt
        rng = np.random.default_rng(11)
        self.prey = sk.to_device((10 + 5 * rng.random(PATCHES)).astype(np.float32), stream)
        self.pred = sk.to_device((5 + 2 * rng.random(PATCHES)).astype(np.float32), stream)
        self.prey_next = sk.zeros(PATCHES, f32, stream)
        self.pred_next = sk.zeros(PATCHES, f32, stream)
        self.config = simt.LaunchConfig1D.for_len(PATCHES, block=32)
        self.prepared = lv_step.prepare(self.config, dev)  # validates the config once

    def _args(self) -> tuple:
        r = self.rates
        return (self.prey, self.pred, self.prey_next, self.pred_next,
                r.growth, r.predation, r.death, r.conversion, r.migration, self.dt)

    def _swap(self) -> None:
        self.prey, self.prey_next = self.prey_next, self.prey
        self.pred, self.pred_next = self.pred_next, self.pred

    def advance_checked(self) -> None:
        lv_step.launch(self.prepared, self.stream, *self._args())
        self._swap()

    def _advance_unchecked(self) -> None:
        lv_step.launch_unchecked(self.config, self.stream, *self._args())
        self._swap()

    def run(self, generations: int) -> list[tuple[float, float]]:
        self.advance_checked()  # first step through the checked path
        history = []
        with simt.unsafe():  # the config was validated by prepare(); skip the per-launch checks
            for _ in range(generations - 1):
                self._advance_unchecked()
                history.append(self.totals())
        return history

    def totals(self) -> tuple[float, float]:
        return float(self.prey.to_numpy(self.stream).sum()), float(self.pred.to_numpy(self.stream).sum())


def main() -> None:
    dev = sk.Device.cpu()
    land = Landscape(dev, dev.new_stream(), Rates(), dt=0.02)
    history = land.run(20)
    prey, pred = history[-1]
    assert prey > 0 and pred > 0
    print(f"after {len(history) + 1} generations: prey {prey:.1f}, predators {pred:.1f}")


if __name__ == "__main__":
    main()
