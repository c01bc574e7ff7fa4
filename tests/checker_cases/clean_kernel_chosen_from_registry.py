"""The clean twin of `e0502_kernel_chosen_from_registry`: each launch of a kernel chosen from a collection reads
one buffer and writes another, and every prepared launch of the registry was prepared for the kernel under its
key."""

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


def by_name(name: str, a: sk.DeviceBuffer, b: sk.DeviceBuffer, stream: sk.Stream, dev: sk.Device) -> None:
    KERNELS[name].launch(KERNELS[name].prepare(CFG, dev), stream, a, b)


def through_a_name(name: str, a: sk.DeviceBuffer, b: sk.DeviceBuffer, stream: sk.Stream, dev: sk.Device) -> None:
    kernel = KERNELS[name]
    kernel.launch(kernel.prepare(CFG, dev), stream, a, b)


def every_kernel(a: sk.DeviceBuffer, b: sk.DeviceBuffer, stream: sk.Stream, dev: sk.Device) -> None:
    for kernel in (double, triple):
        kernel.launch(kernel.prepare(CFG, dev), stream, a, b)


class Pipeline:
    def __init__(self, dev: sk.Device) -> None:
        self.prepared = {"double": double.prepare(CFG, dev), "triple": triple.prepare(CFG, dev)}

    def run(self, name: str, a: sk.DeviceBuffer, b: sk.DeviceBuffer, stream: sk.Stream) -> None:
        kernel, prepared = KERNELS[name], self.prepared[name]
        kernel.launch(prepared, stream, a, b)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(64, np.float32), stream)
    b = sk.zeros(64, f32, stream)
    by_name("double", a, b, stream, dev)
    through_a_name("triple", a, b, stream, dev)
    every_kernel(a, b, stream, dev)
    Pipeline(dev).run("triple", a, b, stream)
    print(b.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
