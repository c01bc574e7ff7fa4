"""A dict built by a display and then stored into under a key the display lacks holds that key from the store on
(`roles["output"] = roles["input"]` adds the item, as the runtime does), and a helper returning such a dict by
name (`return roles`) gives the caller its items: each key's last value, a store's arms reading the dict under a
key it holds being that item.  In place, the output role is the input buffer, so launching with both is E0502 (the
runtime raises `AliasingError` at each marked line)."""

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
    return roles


def stored_here(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    bufs = {"src": sk.to_device(np.ones(n, np.float32), stream)}
    bufs["dst"] = bufs["src"]
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    scale.launch(prepared, stream, bufs["src"], bufs["dst"], 2.0)  # expect: E0502


def built_by_helper(dev: sk.Device, stream: sk.Stream, n: int) -> None:
    roles = make_roles(n, stream, inplace=True)
    src, dst = ROLES(roles)
    prepared = scale.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    scale.launch(prepared, stream, src, dst, 3.0)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    for step in (stored_here, built_by_helper):
        try:
            step(dev, dev.new_stream(), 128)
        except sk.AliasingError as err:
            print("AliasingError:", err)


if __name__ == "__main__":
    main()
