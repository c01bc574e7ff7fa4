# fresh-expect: E0382 at line 53
# fresh-known-false-alarm: cli,mypy false E0382 at line 94: a use of the moved buffer after the loop, which the runtime never reaches once line 53 (inside `snapshot`, reached from line 91) raises (a cascade of the same bug)
# fresh-note: Per-cell battery state-of-charge estimator whose snapshot() hands the live SoC buffer to a balancing planner on a second device with buf.to(), which moves it (unlike torch's .to), so the next estimator step launches the moved buffer.
from __future__ import annotations
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

CELLS = 96


@simt.device
def ocv(soc: f32) -> f32:
    return f32(3.2) + f32(0.9) * soc - f32(0.25) * (f32(1.0) - soc) * (f32(1.0) - soc)


@simt.kernel
@simt.launch_contract(block=32)
def soc_step(soc: Slice[f32], amps: Slice[f32], volts: Slice[f32], cap_ah: Slice[f32], out: DisjointSlice[f32],
             dt_h: f32, gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(soc) and (o := out.get_mut(idx)) is not None:
        pred = soc[i] - amps[i] * dt_h / cap_ah[i]
        innovation = volts[i] - ocv(pred)
        o.set(min(max(pred + gain * innovation, f32(0.0)), f32(1.0)))


@simt.kernel
@simt.launch_contract(block=32)
def imbalance(soc: Slice[f32], bleed: DisjointSlice[f32], target: f32, deadband: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if i < len(soc) and (o := bleed.get_mut(idx)) is not None:
        excess = soc[i] - target
        o.set(excess if excess > deadband else f32(0.0))


class PackEstimator:
    def __init__(self, dev: sk.Device, stream: sk.Stream, cap_ah: np.ndarray, soc0: np.ndarray) -> None:
        self.stream = stream
        self.cap = sk.to_device(cap_ah.astype(np.float32), stream)
        self.soc = sk.to_device(soc0.astype(np.float32), stream)
        self.scratch = sk.zeros(CELLS, f32, stream)
        self.launch = soc_step.prepare(simt.LaunchConfig1D.for_len(CELLS, block=32), dev)

    def step(self, amps: np.ndarray, volts: np.ndarray, dt_h: float) -> None:
        a = sk.to_device(amps.astype(np.float32), self.stream)
        v = sk.to_device(volts.astype(np.float32), self.stream)
        soc_step.launch(self.launch, self.stream, self.soc, a, v, self.cap, self.scratch, dt_h, 0.05)
        self.soc, self.scratch = self.scratch, self.soc

    def snapshot(self, dev: sk.Device, stream: sk.Stream) -> sk.DeviceBuffer:
        """The current SoC vector on `dev`, for the balancing controller."""
        return self.soc.to(dev, stream)


class Balancer:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.bleed = sk.zeros(CELLS, f32, stream)
        self.launch = imbalance.prepare(simt.LaunchConfig1D.for_len(CELLS, block=32), dev)

    def plan(self, soc: sk.DeviceBuffer) -> int:
        target = float(soc.to_numpy(self.stream).min())
        imbalance.launch(self.launch, self.stream, soc, self.bleed, target, 0.01)
        return int((self.bleed.to_numpy(self.stream) > 0).sum())


def measurements(rng: np.random.Generator, soc_true: np.ndarray, amps: float):
    true_ocv = 3.2 + 0.9 * soc_true - 0.25 * (1 - soc_true) ** 2
    i = amps + rng.normal(0.0, 0.2, CELLS)
    return i, true_ocv + rng.normal(0.0, 0.005, CELLS)


def main() -> None:
    bms, aux = sk.Device.cpu(0), sk.Device.cpu(1)
    s_bms, s_aux = bms.new_stream(), aux.new_stream()
    rng = np.random.default_rng(23)
    cap = rng.uniform(4.6, 5.2, CELLS)
    soc_true = rng.uniform(0.7, 0.8, CELLS)
    pack = PackEstimator(bms, s_bms, cap, np.full(CELLS, 0.75))
    balancer = Balancer(aux, s_aux)
    dt_h = 10.0 / 3600.0
    for step in range(8):
        soc_true = soc_true - 5.0 * dt_h / cap
        amps, volts = measurements(rng, soc_true, 5.0)
        pack.step(amps, volts, dt_h)
        if step % 4 == 3:
            print(f"step {step}: {balancer.plan(pack.snapshot(aux, s_aux))} cells bleeding")
    est = pack.soc.to_numpy(s_bms)
    print(f"mean |SoC error| {np.abs(est - soc_true).mean():.4f}")


if __name__ == "__main__":
    main()
