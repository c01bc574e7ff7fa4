# fresh-expect: E0505 at line 52
# fresh-known-miss: cli,mypy the queue hand-off is followed now (inbox.put(out) stores out into the queue object worker.inbox also refers to; buf = self.inbox.get(); buf.partition(...) moves it), but the E0505 is reported where the method moves it (line 37, as for any method moving a caller's buffer a pending op borrows: golden e0505_pending_op_kept_by_method), not at the call worker.work_one() this program marks
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
