# fresh-expect: E0382 at line 46
"""A scheduler wraps each launch in a logging continuation before queueing it."""
import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

LOG: list[str] = []


@tile.kernel
def scale(out: Partition[f32], x: Tensor[f32], factor: f32) -> None:
    out.store(tile.load_like(x, out) * factor)


def logged(op: sk.DeviceOp, label: str) -> sk.DeviceOp:
    def note(value):
        LOG.append(f"{label} done")
        return value

    return op.then(note)


class Scheduler:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.queue: list[sk.DeviceOp] = []

    def enqueue(self, op: sk.DeviceOp, label: str) -> None:
        self.queue.append(logged(op, label))

    def flush(self) -> list:
        values = [op.sync_on(self.stream) for op in self.queue]
        self.queue.clear()
        return values


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    sched = Scheduler(stream)
    x = tile.ones((256,), f32)
    out = tile.zeros((256,), f32).partition((64,))
    pending = scale(out, x, 2.0)
    sched.enqueue(pending, "double")
    results = sched.flush()
    retry = pending.sync_on(stream)
    print(LOG, len(results), retry)


if __name__ == "__main__":
    main()
