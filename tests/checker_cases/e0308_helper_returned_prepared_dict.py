"""A helper returns its prepared launches in a dict: a dict display (`{"relu": relu.prepare(...), ...}`) or a
comprehension over a registry of kernels bound once at the module's top level or in the helper (`{name:
kernel.prepare(...) for name, kernel in ACTIVATIONS.items()}`).  The caller's `launches["relu"]` is the launch
prepared for `relu`, so launching `gelu` with it is a mismatch; so is a field of an object a helper builds from a
local bound to a prepared launch (`fwd = relu.prepare(...)`, `return Plan(fwd=fwd, bwd=fwd)`), and an item of a
returned tuple of such a local (`return fwd, fwd` unpacked into two names)."""

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


def local_registry(n: int, dev: sk.Device) -> dict:
    kernels = {"relu": relu, "gelu": gelu}
    return {name: kernel.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev) for name, kernel in kernels.items()}


def display(n: int, dev: sk.Device) -> dict:
    config = simt.LaunchConfig1D.for_len(n, block=64)
    return {"relu": relu.prepare(config, dev), "gelu": gelu.prepare(config, dev)}


@dataclass
class Plan:
    fwd: simt.PreparedLaunch
    bwd: simt.PreparedLaunch


def make_plan(n: int, dev: sk.Device) -> Plan:
    fwd = relu.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    return Plan(fwd=fwd, bwd=fwd)


def launch_pair(n: int, dev: sk.Device) -> tuple:
    fwd = relu.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    return fwd, fwd


def run(dev: sk.Device, stream: sk.Stream) -> None:
    x = sk.to_device(np.linspace(-1, 1, 64, dtype=np.float32), stream)
    out = sk.zeros(64, f32, stream)
    launches = module_registry(64, dev)
    gelu.launch(launches["relu"], stream, x, out)  # expect: E0308
    local = local_registry(64, dev)
    relu.launch(local["gelu"], stream, x, out)  # expect: E0308
    shown = display(64, dev)
    gelu.launch(shown["relu"], stream, x, out)  # expect: E0308
    plan = make_plan(64, dev)
    gelu.launch(plan.bwd, stream, x, out)  # expect: E0308
    _, second = launch_pair(64, dev)
    gelu.launch(second, stream, x, out)  # expect: E0308


if __name__ == "__main__":
    device = sk.Device.cpu()
    run(device, device.new_stream())
