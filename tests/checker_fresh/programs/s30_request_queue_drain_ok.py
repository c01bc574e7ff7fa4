# fresh-expect: clean
"""An inference server queues one async launch per request in a deque and drains it before post-processing the
outputs in a tile kernel."""
from collections import deque, namedtuple

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition, Tensor


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


@tile.kernel
def double(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


Request = namedtuple("Request", ["rid", "x"])


class Server:
    def __init__(self, dev, stream, n: int) -> None:
        self.stream = stream
        self.n = n
        self.bias = sk.to_device(np.full(n, 0.5, np.float32), stream)
        self.prepared = vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
        self.inflight = deque()

    def submit(self, req: Request):
        out = sk.zeros(self.n, f32, self.stream)
        self.inflight.append(vecadd.launch_async(self.prepared, req.x, self.bias, out))
        return out

    def drain(self) -> None:
        while self.inflight:
            self.inflight.popleft().sync_on(self.stream)


def serve(dev, stream, n: int) -> list:
    server = Server(dev, stream, n)
    outs = [server.submit(Request(i, sk.to_device(np.full(n, float(i), np.float32), stream))) for i in range(3)]
    server.drain()
    results = []
    for out in outs:
        doubled, _ = double(out.partition((64,)), tile.ones((n,), f32)).sync_on(stream)
        results.append(float(doubled.unpartition().to_numpy(stream)[0]))
    return results


dev = sk.Device.cpu()
print(serve(dev, dev.new_stream(), 256))
