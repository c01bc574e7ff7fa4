"""A launch whose kernel is chosen from a collection is checked once per kernel it may be: a subscript of a
module-level dict display of kernels (`KERNELS[name].launch(...)`), a name bound to one, or a loop over a display
of kernels.  Each such launch here reads and writes one buffer (E0502), and a kernel registry paired with a
registry of prepared launches under one key where one entry was prepared for another kernel is E0308."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def double(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


@simt.kernel
@simt.launch_contract(block=64)
def triple(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(3.0))


KERNELS = {"double": double, "triple": triple}
CFG = simt.LaunchConfig1D.for_len(64, block=64)


def by_name(name: str, a: sk.DeviceBuffer, stream: sk.Stream, dev: sk.Device) -> None:
    KERNELS[name].launch(KERNELS[name].prepare(CFG, dev), stream, a, a)  # expect: E0502


def through_a_name(name: str, a: sk.DeviceBuffer, stream: sk.Stream, dev: sk.Device) -> None:
    kernel = KERNELS[name]
    kernel.launch(kernel.prepare(CFG, dev), stream, a, a)  # expect: E0502


def every_kernel(a: sk.DeviceBuffer, stream: sk.Stream, dev: sk.Device) -> None:
    for kernel in (double, triple):
        kernel.launch(kernel.prepare(CFG, dev), stream, a, a)  # expect: E0502


class Pipeline:
    def __init__(self, dev: sk.Device) -> None:
        self.prepared = {"double": double.prepare(CFG, dev), "triple": double.prepare(CFG, dev)}

    def run(self, name: str, a: sk.DeviceBuffer, b: sk.DeviceBuffer, stream: sk.Stream) -> None:
        kernel, prepared = KERNELS[name], self.prepared[name]
        kernel.launch(prepared, stream, a, b)  # expect: E0308


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    by_name("double", a, stream, dev)


if __name__ == "__main__":
    main()
