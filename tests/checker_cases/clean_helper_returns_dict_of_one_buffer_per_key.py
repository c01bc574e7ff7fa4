"""A helper returning `{name: sk.zeros(...) for name in names}` gives a new buffer under each key, so two of its
entries are two outputs of one launch without conflict; the one buffer of a `dict.fromkeys` result may be read
twice by a launch, as two inputs."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=32)
def split(x: Slice[f32], low: DisjointSlice[f32], high: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (lo := low.get_mut(idx)) is not None:
        lo.set(x[i] * 0.5)
    if (hi := high.get_mut(thread.index_1d())) is not None:
        hi.set(x[i] * 2.0)


@simt.kernel
@simt.launch_contract(block=32)
def add(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


def alloc_outputs(stream: sk.Stream, names: tuple[str, ...]) -> dict[str, sk.DeviceBuffer]:
    return {name: sk.zeros(N, f32, stream) for name in names}


def alloc_inputs(stream: sk.Stream, names: tuple[str, ...]) -> dict[str, sk.DeviceBuffer]:
    return dict.fromkeys(names, sk.to_device(np.ones(N, np.float32), stream))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    config = simt.LaunchConfig1D.for_len(N, block=32)
    x = sk.to_device(np.ones(N, np.float32), stream)
    outs = alloc_outputs(stream, ("low", "high"))
    split.launch(split.prepare(config, dev), stream, x, outs["low"], outs["high"])
    ins = alloc_inputs(stream, ("a", "b"))
    total = sk.zeros(N, f32, stream)
    add.launch(add.prepare(config, dev), stream, ins["a"], ins["b"], total)
    print(total.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
