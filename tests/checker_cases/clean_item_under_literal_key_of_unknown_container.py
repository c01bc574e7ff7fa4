"""Clean twin of e0502_item_under_literal_key_of_unknown_container: different keys are different items, a store
under the key after a move rebinds the item, and a call taking the container, a method changing it or a store
under a computed key make its items new objects, so no read after one is the object read before."""

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def axpy(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] + o.get())


@tile.kernel
def double(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) * 2.0)


def refill(bufs: dict[str, sk.DeviceBuffer], stream: sk.Stream) -> None:
    bufs["a"] = sk.zeros(N, f32, stream)


def step(bufs: dict[str, sk.DeviceBuffer], prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    axpy.launch(prepared, stream, bufs["a"], bufs["b"])
    out = bufs["a"]
    refill(bufs, stream)
    axpy.launch(prepared, stream, bufs["a"], out)
    spare = bufs["b"]
    bufs.update(b=sk.zeros(N, f32, stream))
    axpy.launch(prepared, stream, spare, bufs["b"])
    key = "a"
    first = bufs["a"]
    bufs[key] = sk.zeros(N, f32, stream)
    axpy.launch(prepared, stream, first, bufs["a"])


class Pool:
    def __init__(self, names: list[str], stream: sk.Stream) -> None:
        self.stream = stream
        self.bufs: dict[str, sk.DeviceBuffer] = {}
        for name in names:
            self.bufs[name] = sk.zeros(N, f32, stream)

    def renew(self, name: str) -> None:
        self.bufs[name] = sk.zeros(N, f32, self.stream)

    def accumulate(self, prepared: simt.PreparedLaunch) -> None:
        axpy.launch(prepared, self.stream, self.bufs["value"], self.bufs["grad"])
        old = self.bufs["grad"]
        self.renew("grad")
        axpy.launch(prepared, self.stream, old, self.bufs["grad"])


def refine(state: dict[str, Tensor], stream: sk.Stream) -> None:
    for _ in range(2):
        out = tile.zeros((N,), f32).partition((32,))
        out, state["x"] = double(out, state["x"]).sync_on(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    bufs = {"a": sk.zeros(N, f32, stream), "b": sk.zeros(N, f32, stream)}
    step(bufs, prepared, stream)
    Pool(["grad", "value"], stream).accumulate(prepared)
    refine({"x": tile.from_numpy(np.ones(N, np.float32)).sync_on(stream)}, stream)
    print("ok")


if __name__ == "__main__":
    main()
