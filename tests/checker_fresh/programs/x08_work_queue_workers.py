# fresh-expect: E0505 at line 37
# fresh-note: the runtime raises at line 37, where the worker method moves the buffer it took from its queue (called from line 52 through line 58), where both front ends report it: inbox.put(out) stores out into the queue object worker.inbox also refers to; the header named the call line before
"""A work queue: the producer enqueues finished buffers, a worker object takes them and tiles them."""
import queue

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def square(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * x[i])


@tile.kernel
def halve(out: Partition[f32]) -> None:
    out.store(out.load() * 0.5)


class Worker:
    def __init__(self, inbox: "queue.Queue[sk.DeviceBuffer[f32]]", stream: sk.Stream) -> None:
        self.inbox = inbox
        self.stream = stream
        self.done: list[np.ndarray] = []

    def work_one(self) -> None:
        buf = self.inbox.get()
        (part,) = halve(buf.partition((64,))).sync_on(self.stream)
        self.done.append(part.unpartition().to_numpy(self.stream))


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 256
    inbox: "queue.Queue[sk.DeviceBuffer[f32]]" = queue.Queue()
    worker = Worker(inbox, stream)
    prep = square.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    x = sk.to_device(np.arange(n, dtype=np.float32), stream)
    out = sk.zeros(n, f32, stream)
    pending = square.launch_async(prep, x, out)
    inbox.put(out)  # enqueued before the square kernel ran
    worker.work_one()
    pending.sync_on(stream)
    print(len(worker.done))


if __name__ == "__main__":
    main()
