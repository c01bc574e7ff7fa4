"""An item under a literal key of a container the checker did not see built (a parameter, a dict `__init__` fills
in a loop, a dict a helper returns) is one object per key: `bufs["a"]` read twice in one launch is one buffer
(E0502, as the runtime's `AliasingError` says), and a tile launch moving `state["x"]` in a loop moves it again on
the next iteration (E0382).  Nothing in between may change the container: a store under the key rebinds the item;
a call taking the container, another method of it or a store under a computed key makes its items new objects."""

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


def step(bufs: dict[str, sk.DeviceBuffer], prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    axpy.launch(prepared, stream, bufs["a"], bufs["a"])  # expect: E0502


def step_named(bufs: dict[str, sk.DeviceBuffer], prepared: simt.PreparedLaunch, stream: sk.Stream) -> None:
    out = bufs["a"]
    print(len(bufs), "a" in bufs)
    axpy.launch(prepared, stream, bufs["a"], out)  # expect: E0502


class Pool:
    def __init__(self, names: list[str], stream: sk.Stream) -> None:
        self.stream = stream
        self.bufs: dict[str, sk.DeviceBuffer] = {}
        for name in names:
            self.bufs[name] = sk.zeros(N, f32, stream)

    def accumulate(self, prepared: simt.PreparedLaunch) -> None:
        axpy.launch(prepared, self.stream, self.bufs["grad"], self.bufs["grad"])  # expect: E0502


def refine(state: dict[str, Tensor], stream: sk.Stream) -> None:
    for _ in range(2):
        out = tile.zeros((N,), f32).partition((32,))
        out, _x = double(out, state["x"]).sync_on(stream)  # expect: E0382


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    bufs = {"a": sk.zeros(N, f32, stream), "b": sk.zeros(N, f32, stream)}
    step(bufs, prepared, stream)
    step_named(bufs, prepared, stream)
    Pool(["grad", "value"], stream).accumulate(prepared)
    refine({"x": tile.from_numpy(np.ones(N, np.float32)).sync_on(stream)}, stream)


if __name__ == "__main__":
    main()
