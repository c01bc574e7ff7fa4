# fresh-expect: clean
"""A batching server: requests launch asynchronously into per-request slots; a slot is tiled after its op ran."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def gelu_ish(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * f32(0.5) * (f32(1.0) + x[i] / (f32(1.0) + abs(x[i]))))


@tile.kernel
def normalize(out: Partition[f32]) -> None:
    out.store(out.load() * 0.1)


class Batcher:
    def __init__(self, dev: sk.Device, stream: sk.Stream, width: int) -> None:
        self.stream = stream
        self.width = width
        self.prep = gelu_ish.prepare(simt.LaunchConfig1D.for_len(width, block=128), dev)
        self.inflight: dict[int, sk.DeviceOp] = {}
        self.slots: dict[int, sk.DeviceBuffer[f32]] = {}

    def submit(self, rid: int, x: sk.DeviceBuffer[f32]) -> None:
        out = sk.zeros(self.width, f32, self.stream)
        self.slots[rid] = out
        self.inflight[rid] = gelu_ish.launch_async(self.prep, x, out)

    def finish(self, rid: int) -> np.ndarray:
        self.inflight.pop(rid).sync_on(self.stream)
        slot = self.slots.pop(rid)
        (tiled,) = normalize(slot.partition((128,))).sync_on(self.stream)
        return tiled.unpartition().to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    server = Batcher(dev, stream, 256)
    inputs = {rid: sk.to_device(np.linspace(-rid, rid, 256, dtype=np.float32), stream) for rid in (1, 2, 3)}
    for rid, x in inputs.items():
        server.submit(rid, x)
    print([float(server.finish(rid).sum()) for rid in sorted(inputs)])


if __name__ == "__main__":
    main()
