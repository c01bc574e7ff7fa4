# fresh-expect: E0382 at line 50
# fresh-known-miss: cli,mypy observer callbacks in a defaultdict(list) run by emit(): one moves, next reads
"""An event bus notifies listeners in registration order; the archiving listener moves the tensor the metrics
listener reads."""
from collections import defaultdict

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


class EventBus:
    def __init__(self) -> None:
        self.listeners = defaultdict(list)

    def on(self, event: str):
        def register(fn):
            self.listeners[event].append(fn)
            return fn
        return register

    def emit(self, event: str, payload) -> None:
        for fn in self.listeners[event]:
            fn(payload)


bus = EventBus()
stream = sk.Device.cpu().new_stream()
archive = []


@bus.on("step_done")
def archive_doubled(t) -> None:
    out, _ = double(tile.zeros((256,), f32).partition((64,)), t).sync_on(stream)
    archive.append(out.unpartition())


@bus.on("step_done")
def log_metrics(t) -> None:
    print("mean", float(t.to_numpy(stream).mean()))


activations = tile.ones((256,), f32).sync_on(stream)
bus.emit("step_done", activations)  # BUG
