# fresh-expect: E0505 at line 42
# (fixed: a buffer taken back out of a dict attribute that another method filled, while an op it stored beside it borrows it)
"""An inference server keeps one pending launch per request and recycles output slots."""
import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def relu(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(max(x[i], f32(0.0)))


@tile.kernel
def clear(out: Partition[f32]) -> None:
    out.store(tile.zeros(out.tile_shape, f32))


class Server:
    def __init__(self, dev: sk.Device, stream: sk.Stream, width: int) -> None:
        self.stream = stream
        self.width = width
        self.prep = relu.prepare(simt.LaunchConfig1D.for_len(width, block=128), dev)
        self.inflight: dict[str, sk.DeviceOp] = {}
        self.slots: dict[str, sk.DeviceBuffer[f32]] = {}

    def submit(self, request_id: str, activations: sk.DeviceBuffer[f32]) -> None:
        out = sk.zeros(self.width, f32, self.stream)
        self.slots[request_id] = out
        self.inflight[request_id] = relu.launch_async(self.prep, activations, out)

    def recycle(self, request_id: str) -> None:
        slot = self.slots.pop(request_id)
        (cleared,) = clear(slot.partition((128,))).sync_on(self.stream)
        del cleared

    def drain(self) -> None:
        for op in self.inflight.values():
            op.sync_on(self.stream)
        self.inflight.clear()


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    server = Server(dev, stream, 256)
    for rid in ("a", "b"):
        server.submit(rid, sk.to_device(np.linspace(-1, 1, 256, dtype=np.float32), stream))
    server.recycle("a")
    server.drain()


if __name__ == "__main__":
    main()
