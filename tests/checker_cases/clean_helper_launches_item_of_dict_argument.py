"""A helper returns a dict display of prepared launches, and another function is given the whole dict and launches
each kernel with the item prepared for it (`launches["wind"]` is `wind_load`'s): runs clean."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def settle(snow: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(snow[i] * 0.5)


@simt.kernel
@simt.launch_contract(block=64)
def wind_load(snow: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(snow[i] * 1.5)


def prepare_all(dev: sk.Device) -> dict[str, simt.PreparedLaunch]:
    config = simt.LaunchConfig1D.for_len(N, block=64)
    return {"settle": settle.prepare(config, dev), "wind": wind_load.prepare(config, dev)}


def forecast(launches: dict[str, simt.PreparedLaunch], stream: sk.Stream) -> np.ndarray:
    snow = sk.to_device(np.ones(N, np.float32), stream)
    settled = sk.zeros(N, f32, stream)
    loaded = sk.zeros(N, f32, stream)
    settle.launch(launches["settle"], stream, snow, settled)
    wind_load.launch(launches["wind"], stream, settled, loaded)
    return loaded.to_numpy(stream)


def main() -> None:
    dev = sk.Device.cpu()
    launches = prepare_all(dev)
    print(forecast(launches, dev.new_stream())[:4])


if __name__ == "__main__":
    main()
