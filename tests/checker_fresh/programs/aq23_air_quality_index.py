# fresh-expect: E0502 at line 72
# fresh-note: PM2.5 humidity correction (tile) lent through `as_buffer` to an EPA AQI SIMT kernel; bug: for the compact Ulaanbaatar network the `index_out` property returns `self.pm25`, a second `as_buffer` of the same corrected tensor, so the launch at line 72 reads and writes one buffer.
"""Urban air quality: humidity correction of low-cost PM2.5 sensors, then the US EPA air quality index.

The humidity correction is a tile kernel; its result is lent to a SIMT kernel (without a copy, through
`as_buffer`) that maps concentrations to AQI values with the EPA breakpoint table.  Edge gateways with
little memory run in "compact" mode.
"""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

TILE = 128


@tile.kernel
def humidity_correct(pm: Partition[f32], raw: Tensor[f32], rh: Tensor[f32]) -> None:
    h = tile.minimum(tile.load_like(rh, pm), 0.95)
    pm.store(tile.load_like(raw, pm) / (1.0 + 0.25 * h * h / (1.0 - h)))


@simt.kernel
@simt.launch_contract(block=128)
def epa_aqi(pm: Slice[f32], aqi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := aqi.get_mut(idx)) is not None:
        c = pm[i]
        lo_c, hi_c, lo_i, hi_i = f32(0.0), f32(12.0), f32(0.0), f32(50.0)
        if c > f32(12.0):
            lo_c, hi_c, lo_i, hi_i = f32(12.1), f32(35.4), f32(51.0), f32(100.0)
        if c > f32(35.4):
            lo_c, hi_c, lo_i, hi_i = f32(35.5), f32(55.4), f32(101.0), f32(150.0)
        if c > f32(55.4):
            lo_c, hi_c, lo_i, hi_i = f32(55.5), f32(150.4), f32(151.0), f32(200.0)
        out.set(lo_i + (hi_i - lo_i) * (min(c, hi_c) - lo_c) / (hi_c - lo_c))


class SensorNetwork:
    def __init__(self, city: str, sensors: int, device: sk.Device, stream: sk.Stream, compact: bool = False) -> None:
        self.city = city
        self.sensors = sensors
        self.stream = stream
        self.compact = compact
        self.prepared = epa_aqi.prepare(simt.LaunchConfig1D.for_len(sensors, block=128), device)
        self._corrected: tile.Tensor | None = None
        self._index = None if compact else sk.zeros(sensors, f32, stream)

    @property
    def pm25(self) -> sk.DeviceBuffer:
        assert self._corrected is not None, "call correct() first"
        return self._corrected.as_buffer()

    @property
    def index_out(self) -> sk.DeviceBuffer:
        # compact gateways overwrite the corrected concentrations with the index to save memory
        return self.pm25 if self.compact else self._index

    def correct(self, raw: np.ndarray, rh: np.ndarray) -> None:
        pm = tile.zeros((self.sensors,), f32).partition((TILE,))
        pm, _raw, _rh = humidity_correct(pm, tile.from_numpy(raw), tile.from_numpy(rh)).sync_on(self.stream)
        self._corrected = pm.unpartition()

    def aqi(self) -> np.ndarray:
        epa_aqi.launch(self.prepared, self.stream, self.pm25, self.index_out)
        return self.index_out.to_numpy(self.stream)


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    rng = np.random.default_rng(25)
    networks = [
        SensorNetwork("Lagos", 1500, device, stream),
        SensorNetwork("Krakow", 900, device, stream),
        SensorNetwork("Ulaanbaatar", 600, device, stream, compact=True),
    ]
    for net, level in zip(networks, (38.0, 22.0, 70.0)):
        raw = rng.gamma(4.0, level / 4.0, net.sensors).astype(np.float32)
        rh = rng.uniform(0.3, 0.9, net.sensors).astype(np.float32)
        net.correct(raw, rh)
        index = net.aqi()
        unhealthy = float((index > 150).mean())
        print(f"{net.city:<12} median AQI {np.median(index):5.1f}, {unhealthy:5.1%} of sensors unhealthy")


if __name__ == "__main__":
    main()
