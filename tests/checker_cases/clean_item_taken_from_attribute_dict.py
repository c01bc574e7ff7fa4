"""The clean twin of `e0505_item_taken_from_attribute_dict`: the method taking a buffer back out of the dict
attribute first runs the pending op stored beside it (`self.inflight.pop(rid).sync_on(...)`), and a second class
stores only the op's results (each op run where it is launched), so the buffers it keeps are borrowed by nothing
when another method moves one into the tile world."""

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
        self.inflight.pop(request_id).sync_on(self.stream)
        slot = self.slots.pop(request_id)
        (cleared,) = clear(slot.partition((128,))).sync_on(self.stream)
        del cleared


class SyncServer:
    def __init__(self, dev: sk.Device, stream: sk.Stream, width: int) -> None:
        self.stream = stream
        self.width = width
        self.prep = relu.prepare(simt.LaunchConfig1D.for_len(width, block=128), dev)
        self.slots: dict[str, sk.DeviceBuffer[f32]] = {}

    def submit(self, request_id: str, activations: sk.DeviceBuffer[f32]) -> None:
        out = sk.zeros(self.width, f32, self.stream)
        relu.launch_async(self.prep, activations, out).sync_on(self.stream)
        self.slots[request_id] = out

    def recycle(self, request_id: str) -> None:
        slot = self.slots.pop(request_id)
        (cleared,) = clear(slot.partition((128,))).sync_on(self.stream)
        del cleared


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    for server in (Server(dev, stream, 256), SyncServer(dev, stream, 256)):
        server.submit("a", sk.to_device(np.linspace(-1, 1, 256, dtype=np.float32), stream))
        server.recycle("a")


if __name__ == "__main__":
    main()
