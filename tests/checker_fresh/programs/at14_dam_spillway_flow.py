# fresh-expect: E0502 at line 49
# fresh-note: Dam spillway routing that cascades flow depth from reach to reach; the inflow view of a reach includes its downstream boundary node, which is also the first node of the next reach's outflow view in the same buffer.
"""Dam spillway: route the release hydrograph down a chute split into equal reaches."""

from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 32
NODES_PER_REACH = 32


@simt.kernel
@simt.launch_contract(block=BLOCK)
def route(inflow: Slice[f32], outflow: DisjointSlice[f32], celerity: f32, loss: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := outflow.get_mut(idx)) is not None:
        upstream = inflow[len(inflow) - 1]
        if i + 1 < len(inflow):
            upstream = f32(0.5) * (inflow[i] + inflow[i + 1])
        o.set((f32(1.0) - loss) * (celerity * upstream + (f32(1.0) - celerity) * inflow[i]))


class Spillway:
    def __init__(self, dev: sk.Device, stream: sk.Stream, reaches: int) -> None:
        self.stream = stream
        self.reaches = reaches
        self.depth = sk.zeros(reaches * NODES_PER_REACH + 1, f32, stream)
        self._prepared = route.prepare(simt.LaunchConfig1D.for_len(NODES_PER_REACH, block=BLOCK), dev)

    def reach(self, k: int, with_boundary: bool = False) -> sk.DeviceBuffer:
        start = k * NODES_PER_REACH
        stop = start + NODES_PER_REACH + (1 if with_boundary else 0)
        return self.depth.view(start, stop)

    def release(self, gate_depth: np.ndarray) -> None:
        self.reach(0).copy_from_numpy(gate_depth.astype(np.float32))

    def cascade(self, celerity: float = 0.6, loss: float = 0.01) -> np.ndarray:
        for k in range(self.reaches - 1):
            upstream = self.reach(k, with_boundary=True)
            downstream = self.reach(k + 1)
            route.launch(self._prepared, self.stream, upstream, downstream, celerity, loss)
        return self.depth.to_numpy(self.stream)


def hydrograph(peak_m: float) -> np.ndarray:
    x = np.linspace(0.0, 1.0, NODES_PER_REACH)
    return (peak_m * np.sin(np.pi * x) ** 2 + 0.2).astype(np.float32)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    chute = Spillway(dev, stream, reaches=6)
    for gate, peak in (("partial", 1.2), ("full", 3.4)):
        chute.release(hydrograph(peak))
        depth = chute.cascade()
        tail = depth[-NODES_PER_REACH - 1 : -1]
        print(f"{gate} gate opening: tailwater mean {tail.mean():.2f} m, max {tail.max():.2f} m")


if __name__ == "__main__":
    main()
