"""The clean twin of `e0308_helper_returned_prepared_dict`: each kernel launches with the entry the helper's dict
(a comprehension over a module-level registry, or a display) prepared for it, and with the field of an object a
helper builds from locals bound to prepared launches that holds its own, and with the items of a returned tuple of
two such locals."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def relu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], f32(0.0)))


@simt.kernel
@simt.launch_contract(block=64)
def gelu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    v = x[i]
    if (o := out.get_mut(idx)) is not None:
        o.set(0.5 * v * (1.0 + v / (1.0 + abs(v))))


ACTIVATIONS = {"relu": relu, "gelu": gelu}


def module_registry(n: int, dev: sk.Device) -> dict:
    return {name: kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev) for name, kernel in ACTIVATIONS.items()}


def display(n: int, dev: sk.Device) -> dict:
    config = simt.LaunchConfig1D.for_len(n, block=64)
    return {"relu": relu.prepare(config, dev), "gelu": gelu.prepare(config, dev)}


@dataclass
class Plan:
    fwd: simt.PreparedLaunch
    bwd: simt.PreparedLaunch


def make_plan(n: int, dev: sk.Device) -> Plan:
    fwd = relu.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    bwd = gelu.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    return Plan(fwd=fwd, bwd=bwd)


def launch_pair(n: int, dev: sk.Device) -> tuple:
    r = relu.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    g = gelu.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    return r, g


def run(dev: sk.Device, stream: sk.Stream) -> None:
    x = sk.to_device(np.linspace(-1, 1, 64, dtype=np.float32), stream)
    out = sk.zeros(64, f32, stream)
    launches = module_registry(64, dev)
    relu.launch(launches["relu"], stream, x, out)
    gelu.launch(launches["gelu"], stream, x, out)
    shown = display(64, dev)
    relu.launch(shown["relu"], stream, x, out)
    gelu.launch(shown["gelu"], stream, x, out)
    plan = make_plan(64, dev)
    relu.launch(plan.fwd, stream, x, out)
    gelu.launch(plan.bwd, stream, x, out)
    first, second = launch_pair(64, dev)
    relu.launch(first, stream, x, out)
    gelu.launch(second, stream, x, out)
    print(out.to_numpy(stream)[:4])


if __name__ == "__main__":
    device = sk.Device.cpu()
    run(device, device.new_stream())
