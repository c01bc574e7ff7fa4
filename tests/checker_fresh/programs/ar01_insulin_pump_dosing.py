# fresh-expect: E0502 at line 57
# fresh-note: insulin pump dose planner; a misspelled output key makes `dict.get` fall back to the glucose input buffer, so the dose launch reads and writes the same buffer.
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N_PATIENTS = 128


@simt.kernel
@simt.launch_contract(block=64)
def correction_dose(glucose: Slice[f32], sensitivity: Slice[f32], dose: DisjointSlice[f32], target: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := dose.get_mut(idx)) is not None:
        excess = glucose[i] - target
        out.set(max(excess, f32(0.0)) / sensitivity[i])


@dataclass
class PumpSettings:
    target_mg_dl: float = 110.0
    output_key: str = "dose"
    history: list[np.ndarray] = field(default_factory=list)


class DosePlanner:
    def __init__(self, dev: sk.Device, stream: sk.Stream, settings: PumpSettings) -> None:
        self.dev = dev
        self.stream = stream
        self.settings = settings
        rng = np.random.default_rng(7)
        self.bufs: dict[str, sk.DeviceBuffer] = {
            "glucose": sk.to_device(rng.uniform(80, 260, N_PATIENTS).astype(np.float32), stream),
            "sensitivity": sk.to_device(rng.uniform(30, 60, N_PATIENTS).astype(np.float32), stream),
            "dose": sk.zeros(N_PATIENTS, f32, stream),
        }
        self.plan = correction_dose.prepare(simt.LaunchConfig1D.for_len(N_PATIENTS, block=64), dev)

    def _output(self) -> sk.DeviceBuffer:
        # Without a dedicated output the planner "updates in place".
        return self.bufs.get(self.settings.output_key, self.bufs["glucose"])

    def refresh(self, readings: np.ndarray) -> None:
        self.bufs["glucose"].copy_from_numpy(readings.astype(np.float32), self.stream)

    def run(self) -> np.ndarray:
        out, target = self._output(), self.settings.target_mg_dl
        glucose, sensitivity = self.bufs["glucose"], self.bufs["sensitivity"]
        correction_dose.launch(self.plan, self.stream, glucose, sensitivity, out, target)
        result = out.to_numpy(self.stream)
        self.settings.history.append(result)
        return result


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    warmup = DosePlanner(dev, stream, PumpSettings())
    first = warmup.run()
    print("units (first pass):", np.round(first[:4], 2))

    overnight = PumpSettings(target_mg_dl=120.0, output_key="doses")
    planner = DosePlanner(dev, stream, overnight)
    for hour in range(3):
        planner.refresh(np.full(N_PATIENTS, 150.0 + 10 * hour))
        doses = planner.run()
        print(f"hour {hour}: mean correction {doses.mean():.2f} U")


if __name__ == "__main__":
    main()
