"""A pending `launch_async` op stored into a container (a dict item, `ops.append(...)`, a method of the module's
class storing its parameter in `self.inflight[name]`) is kept by it: its loans last while the container is live,
as the runtime keeps them while the op is reachable through it, so moving a buffer it writes into the tile world
before the container's ops run is E0505 (the runtime raises `BorrowError` at each marked line)."""

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
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.inflight: dict[str, sk.DeviceOp] = {}

    def submit(self, name: str, op: sk.DeviceOp) -> None:
        self.inflight[name] = op

    def drain(self) -> None:
        for op in self.inflight.values():
            op.sync_on(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    a = sk.to_device(np.ones(128, np.float32), stream)
    b = sk.to_device(np.ones(128, np.float32), stream)
    c = sk.zeros(128, f32, stream)
    d = sk.zeros(128, f32, stream)
    e = sk.zeros(128, f32, stream)
    prepared = axpy.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    jobs = {}
    jobs["c"] = axpy.launch_async(prepared, a, b, c)
    ops = []
    ops.append(axpy.launch_async(prepared, a, b, d))
    sched = Scheduler(stream)
    sched.submit("e", axpy.launch_async(prepared, a, b, e))
    zc, _ = double(c.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    zd, _ = double(d.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    ze, _ = double(e.partition((64,)), tile.ones((128,), f32)).sync_on(stream)  # expect: E0505
    jobs.pop("c").sync_on(stream)
    for op in ops:
        op.sync_on(stream)
    sched.drain()
    print(zc.unpartition().to_numpy(stream)[:2], zd, ze)
