"""A property returns an item of a dict display of prepared launches `__init__` stored (`return
self._launches["saturation"]`), copy-pasted into the property meant for the demand kernel: launching
`feed_demand` with `self.demand_launch` gives it `do_saturation`'s launch (E0308, as the runtime's `BrandError`
says).  The property's `return` is read as the caller's own `self._launches["saturation"]`."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def do_saturation(temp: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(14.6 - 0.4 * temp[i])


@simt.kernel
@simt.launch_contract(block=64)
def feed_demand(biomass: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(0.3 * biomass[i])


class PenModel:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        config = simt.LaunchConfig1D.for_len(N, block=64)
        self._launches = {
            "saturation": do_saturation.prepare(config, dev),
            "demand": feed_demand.prepare(config, dev),
        }

    @property
    def saturation_launch(self) -> simt.PreparedLaunch:
        return self._launches["saturation"]

    @property
    def demand_launch(self) -> simt.PreparedLaunch:
        return self._launches["saturation"]

    def hourly(self, temps: np.ndarray, biomass: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = sk.to_device(temps.astype(np.float32), self.stream)
        b = sk.to_device(biomass.astype(np.float32), self.stream)
        sat = sk.zeros(N, f32, self.stream)
        demand = sk.zeros(N, f32, self.stream)
        do_saturation.launch(self.saturation_launch, self.stream, t, sat)
        feed_demand.launch(self.demand_launch, self.stream, b, demand)  # expect: E0308
        return sat.to_numpy(self.stream), demand.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    pens = PenModel(dev, dev.new_stream())
    sat, demand = pens.hourly(np.full(N, 12.0), np.full(N, 40.0))
    print(sat[:2], demand[:2])


if __name__ == "__main__":
    main()
