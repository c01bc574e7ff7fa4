"""The clean twin: the helper builds the `NamedTuple` in field order, so `plans.drag` is the launch prepared for
`drag`."""

import functools
from typing import NamedTuple

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=32)
def drag(speed: Slice[f32], force: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := force.get_mut(thread.index_1d())) is not None:
        o.set(speed[i] * speed[i])


@simt.kernel
@simt.launch_contract(block=32)
def lift(speed: Slice[f32], force: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (o := force.get_mut(thread.index_1d())) is not None:
        o.set(speed[i] * f32(0.5))


class Plans(NamedTuple):
    drag: simt.PreparedLaunch
    lift: simt.PreparedLaunch


@functools.cache
def plans_for(n: int, dev: sk.Device) -> Plans:
    cfg = simt.LaunchConfig1D.for_len(n, block=32)
    return Plans(drag.prepare(cfg, dev), lift.prepare(cfg, dev))


def deviation(speed: sk.DeviceBuffer, dev: sk.Device, stream: sk.Stream) -> None:
    plans = plans_for(64, dev)
    side = sk.zeros(64, f32, stream)
    drag.launch(plans.drag, stream, speed, side)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    deviation(sk.zeros(64, f32, stream), dev, stream)


if __name__ == "__main__":
    main()
