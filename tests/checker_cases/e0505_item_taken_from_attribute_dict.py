"""A buffer one method stores into a dict attribute (`self.slots[rid] = out`) beside the pending op that writes it
(`self.inflight[rid] = relu.launch_async(..., out)`) is the buffer another method takes back out
(`self.slots.pop(rid)`): moving it into the tile world while the op is still kept is E0505 (the runtime raises
`BorrowError` at the marked line; the methods may run in any order, so the checker reads each method as able to
run after any other)."""

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
        (cleared,) = clear(slot.partition((128,))).sync_on(self.stream)  # expect: E0505
        del cleared


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    server = Server(dev, stream, 256)
    server.submit("a", sk.to_device(np.linspace(-1, 1, 256, dtype=np.float32), stream))
    server.recycle("a")


if __name__ == "__main__":
    main()
