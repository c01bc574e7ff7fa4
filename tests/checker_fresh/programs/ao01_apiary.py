# fresh-expect: E0502 at line 75
# fresh-note: Hive telemetry de-drift: the weight SensorSpec asks for inplace=True, so _output_for returns self.raw[name] and correct() launches remove_drift with the same buffer as Slice input and DisjointSlice output (aliasing hidden behind a dict attribute and a helper method).
"""Apiary telemetry: remove sensor drift from hive channels and flag likely swarms."""
from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N_HIVES = 1024
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK, requires=("len(raw) >= len(out)", "len(drift) >= len(out)"))
def remove_drift(raw: Slice[f32], drift: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(raw[i] - drift[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def swarm_score(temp: Slice[f32], weight: Slice[f32], acoustic: Slice[f32], score: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := score.get_mut(idx)) is not None:
        s = f32(0.0)
        if temp[i] > 1.5:
            s += 1.0
        if weight[i] < -0.8:
            s += 2.0
        if acoustic[i] > 0.5:
            s += 1.5
        o.set(s)


@dataclass
class SensorSpec:
    name: str
    drift_per_day: float
    inplace: bool = False  # overwrite the raw channel to save device memory


class ApiaryMonitor:
    def __init__(self, dev: sk.Device, stream: sk.Stream, specs: list[SensorSpec]) -> None:
        self.stream = stream
        self.specs = {spec.name: spec for spec in specs}
        config = simt.LaunchConfig1D.for_len(N_HIVES, block=BLOCK)
        self.drift_launch = remove_drift.prepare(config, dev)
        self.score_launch = swarm_score.prepare(config, dev)
        self.raw: dict[str, sk.DeviceBuffer] = {}
        self.drift: dict[str, sk.DeviceBuffer] = {}
        self.clean: dict[str, sk.DeviceBuffer] = {}

    def ingest(self, name: str, readings: np.ndarray, days: float) -> None:
        spec = self.specs[name]
        self.raw[name] = sk.to_device(readings.astype(np.float32), self.stream)
        drift = np.full(N_HIVES, spec.drift_per_day * days, np.float32)
        self.drift[name] = sk.to_device(drift, self.stream)

    def _output_for(self, name: str) -> sk.DeviceBuffer:
        if self.specs[name].inplace:
            return self.raw[name]
        if name not in self.clean:
            self.clean[name] = sk.zeros(N_HIVES, f32, self.stream)
        return self.clean[name]

    def correct(self, name: str) -> sk.DeviceBuffer:
        out = self._output_for(name)
        remove_drift.launch(self.drift_launch, self.stream, self.raw[name], self.drift[name], out)
        return out

    def swarm_candidates(self, threshold: float = 3.0) -> list[int]:
        corrected = {name: self.correct(name) for name in ("temperature", "weight", "acoustic")}
        score = sk.zeros(N_HIVES, f32, self.stream)
        swarm_score.launch(
            self.score_launch, self.stream, corrected["temperature"], corrected["weight"], corrected["acoustic"], score
        )
        host = score.to_numpy(self.stream)
        return [int(i) for i in np.nonzero(host >= threshold)[0]]


def synthetic_readings(rng: np.random.Generator) -> dict[str, np.ndarray]:
    return {
        "temperature": rng.normal(0.0, 1.0, N_HIVES),
        "humidity": rng.normal(60.0, 5.0, N_HIVES),
        "weight": rng.normal(0.0, 0.6, N_HIVES),
        "acoustic": rng.uniform(0.0, 1.0, N_HIVES),
    }


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    specs = [
        SensorSpec("temperature", 0.01),
        SensorSpec("humidity", 0.2),
        SensorSpec("weight", -0.03, inplace=True),
        SensorSpec("acoustic", 0.0),
    ]
    monitor = ApiaryMonitor(dev, stream, specs)
    rng = np.random.default_rng(2024)
    for name, values in synthetic_readings(rng).items():
        monitor.ingest(name, values, days=14.0)
    hives = monitor.swarm_candidates()
    print(f"{len(hives)} hives flagged for a swarm inspection; first few: {hives[:5]}")


if __name__ == "__main__":
    main()
