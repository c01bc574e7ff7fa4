# fresh-expect: clean
# fresh-note: Model rocket flight computer replay that calibrates barometer and accelerometer channels with queued async launches, flushes them all, then moves the calibrated pressure into a tile altitude kernel chained with then.
"""Model rocketry: calibrate a flight log's sensor channels and recover altitude and apogee."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

BLOCK = 64
TILE = 64
CHANNELS = {"baro": (0.01, 0.0), "accel": (0.0048, -9.81)}


@simt.kernel
@simt.launch_contract(block=BLOCK)
def calibrate(counts: Slice[f32], out: DisjointSlice[f32], gain: f32, offset: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(counts[i] * gain + offset)


@tile.kernel
def barometric_altitude(alt: Partition[f32], pressure_hpa: Tensor[f32], ground_hpa: f32) -> None:
    ratio = tile.load_like(pressure_hpa, alt) / ground_hpa
    alt.store(44330.0 * (1.0 - tile.exp(0.1903 * tile.log(ratio))))


class FlightComputer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, samples: int) -> None:
        self.stream = stream
        self.samples = samples
        self.channels = {name: sk.zeros(samples, f32, stream) for name in CHANNELS}
        self.inflight: dict[str, sk.DeviceOp] = {}
        self._prepared = calibrate.prepare(simt.LaunchConfig1D.for_len(samples, block=BLOCK), dev)

    def ingest(self, name: str, counts: np.ndarray) -> None:
        gain, offset = CHANNELS[name]
        raw = sk.to_device(counts.astype(np.float32), self.stream)
        self.inflight[name] = calibrate.launch_async(self._prepared, raw, self.channels[name], gain, offset)

    def flush(self) -> None:
        for name in list(self.inflight):
            self.inflight.pop(name).sync_on(self.stream)

    def altitude(self, ground_hpa: float) -> tuple[np.ndarray, int]:
        pressure = self.channels.pop("baro")
        alt = sk.zeros(self.samples, f32, self.stream).partition((TILE,))
        op = barometric_altitude(alt, pressure, ground_hpa)
        track, apogee = op.then(lambda values: self._summarise(values[0])).sync_on(self.stream)
        return track, apogee

    def _summarise(self, alt: Partition) -> tuple[np.ndarray, int]:
        track = alt.to_numpy(self.stream)
        return track, int(np.argmax(track))


def simulated_log(samples: int, hz: float) -> dict[str, np.ndarray]:
    t = np.arange(samples) / hz
    burn = np.minimum(t, 1.5)
    coast = np.maximum(t - 1.5, 0.0)
    height = np.maximum(0.5 * 30.0 * burn**2 + 45.0 * coast - 4.9 * coast**2, 0.0)
    pressure = 1013.25 * (1.0 - height / 44330.0) ** 5.255
    accel = np.where(t < 1.5, 30.0, -9.81) + 9.81
    return {"baro": pressure / 0.01, "accel": (accel + 9.81) / 0.0048}


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    hz = 50.0
    computer = FlightComputer(dev, stream, samples=450)
    for name, counts in simulated_log(450, hz).items():
        computer.ingest(name, counts)
    computer.flush()
    peak_g = float(computer.channels["accel"].to_numpy(stream).max()) / 9.81
    track, apogee = computer.altitude(ground_hpa=1013.25)
    print(f"peak acceleration {peak_g:.1f} g")
    print(f"apogee {track[apogee]:.1f} m at t={apogee / hz:.2f}s")


if __name__ == "__main__":
    main()
