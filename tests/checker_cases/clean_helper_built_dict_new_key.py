"""The clean twin of `e0502_helper_built_dict_new_key`: the key the store adds holds a buffer of its own (a new
buffer, or the input stored under its key before a new buffer replaces it), and the helper's dict is built out of
place, so each launch reads one buffer and writes another."""

import operator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

ROLES = operator.itemgetter("input", "output")


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


def make_roles(n: int, stream: sk.Stream, inplace: bool) -> dict[str, sk.DeviceBuffer]:
    roles = {"input": sk.to_device(np.arange(n, dtype=np.float32), stream)}
    roles["output"] = roles["input"] if inplace else sk.zeros(n, f32, stream)
    roles["output"] = sk.zeros(n, f32, stream)
    return roles


def stored_here(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    spare = sk.zeros(n, f32, stream)
    bufs = {"src": sk.to_device(np.ones(n, np.float32), stream)}
    bufs["dst"] = spare
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    scale.launch(prepared, stream, bufs["src"], bufs["dst"], 2.0)


def built_by_helper(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    roles = make_roles(n, stream, inplace=True)
    src, dst = ROLES(roles)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    scale.launch(prepared, stream, src, dst, 3.0)


def main() -> None:
    dev = sk.Device.cpu()
    for step in (stored_here, built_by_helper):
        step(dev, dev.new_stream(), 128)
    print("ok")


if __name__ == "__main__":
    main()
