# fresh-expect: clean
# fresh-note: Fish-farm oxygen twin: each property returns the launch its own kernel prepared, so both launches carry the right brand.
"""Fish farm: dissolved-oxygen saturation and feeding oxygen demand per net pen, per hour of the day."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PENS = 96
HOURS = 24
BLOCK = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def do_saturation(temp_c: Slice[f32], salinity: Slice[f32], sat: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := sat.get_mut(idx)) is not None:
        t = temp_c[i]
        fresh = 14.62 - 0.3898 * t + 0.006969 * t * t - 0.00005897 * t * t * t
        out.set(fresh * (1.0 - 0.0056 * salinity[i] / 10.0))


@simt.kernel
@simt.launch_contract(block=BLOCK)
def feed_demand(biomass_t: Slice[f32], temp_c: Slice[f32], demand: DisjointSlice[f32], feeding: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (out := demand.get_mut(idx)) is not None:
        base = 0.3 + 0.02 * temp_c[i]  # kg O2 per tonne per hour
        out.set(biomass_t[i] * base * (1.0 + 0.6 * feeding))


class PenModel:
    species = "generic"
    temp_offset = 0.0

    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        self.n = n
        config = simt.LaunchConfig1D.for_len(n * HOURS, block=BLOCK)
        self._launches = {
            "saturation": do_saturation.prepare(config, dev),
            "demand": feed_demand.prepare(config, dev),
        }

    @property
    def saturation_launch(self) -> simt.PreparedLaunch:
        return self._launches["saturation"]

    @property
    def demand_launch(self) -> simt.PreparedLaunch:
        return self._launches["demand"]

    def water(self, temps: np.ndarray) -> np.ndarray:
        return temps + self.temp_offset

    def hourly(self, temps: np.ndarray, salinity: np.ndarray, biomass: np.ndarray, feeding: float) -> tuple[np.ndarray, np.ndarray]:
        t = sk.to_device(self.water(temps).astype(np.float32), self.stream)
        s = sk.to_device(salinity.astype(np.float32), self.stream)
        b = sk.to_device(biomass.astype(np.float32), self.stream)
        sat = sk.zeros(self.n * HOURS, f32, self.stream)
        demand = sk.zeros(self.n * HOURS, f32, self.stream)
        do_saturation.launch(self.saturation_launch, self.stream, t, s, sat)
        feed_demand.launch(self.demand_launch, self.stream, b, t, demand, feeding)
        shape = (self.n, HOURS)
        return sat.to_numpy(self.stream).reshape(shape), demand.to_numpy(self.stream).reshape(shape)


class SalmonPens(PenModel):
    species = "Atlantic salmon"
    temp_offset = -0.5  # cages sit deeper, in the colder layer

    def water(self, temps: np.ndarray) -> np.ndarray:
        return np.minimum(super().water(temps), 16.0)


def day_profile(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    hours = np.arange(HOURS)
    diurnal = 1.5 * np.sin((hours - 9) * np.pi / 12)
    return {
        "temps": (rng.uniform(10.0, 15.0, (n, 1)) + diurnal).ravel(),
        "salinity": np.repeat(rng.uniform(30.0, 34.0, n), HOURS),
        "biomass": np.repeat(rng.uniform(200.0, 900.0, n), HOURS),
    }


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(17)
    farm = SalmonPens(dev, stream, PENS)
    profile = day_profile(rng, PENS)
    sat, demand = farm.hourly(profile["temps"], profile["salinity"], profile["biomass"], feeding=1.0)
    worst_pen, worst_hour = np.unravel_index(np.argmax(demand / sat), demand.shape)
    print(f"{farm.species}: DO saturation {sat.min():.2f}-{sat.max():.2f} mg/L")
    print(f"highest demand/supply ratio in pen {worst_pen} at {worst_hour:02d}:00 -> add aeration there")


if __name__ == "__main__":
    main()
