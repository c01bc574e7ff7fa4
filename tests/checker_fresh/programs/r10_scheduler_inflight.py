# fresh-expect: E0505 at line 51
"""A tiny scheduler keeps in-flight SIMT ops in a dict keyed by job name and drains them at the end; meanwhile
the host moves a buffer an in-flight op still writes into the tile world."""
from collections import OrderedDict

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


class Scheduler:
    def __init__(self, stream) -> None:
        self.stream = stream
        self.inflight: OrderedDict[str, sk.DeviceOp] = OrderedDict()

    def submit(self, name: str, op: sk.DeviceOp) -> None:
        self.inflight[name] = op

    def drain(self) -> list:
        return [op.sync_on(self.stream) for op in self.inflight.values()]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    sched = Scheduler(stream)
    a = sk.to_device(np.ones(n, np.float32), stream)
    b = sk.to_device(np.ones(n, np.float32), stream)
    out = sk.zeros(n, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    sched.submit("axpy", axpy.launch_async(prepared, a, b, out))
    parts = out.partition((64,))  # BUG
    z, _ = double(parts, tile.ones((n,), f32)).sync_on(stream)
    sched.drain()
    print(z.unpartition().to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
