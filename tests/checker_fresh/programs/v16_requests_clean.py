# fresh-expect: clean
# fresh-note: -
"""Async request handling: a small server queue that syncs each op before handing its output to tiles."""
from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt, tile
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread
from safekernels.tile import Partition


@simt.kernel
@simt.launch_contract(block=128)
def embed(tokens: Slice[f32], table: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(tokens[i] + table[i])


@tile.kernel
def halve(out: Partition[f32]) -> None:
    out.store(out.load() * 0.5)


class Server:
    def __init__(self, dev: sk.Device, n: int) -> None:
        self.stream = dev.new_stream()
        self.prep = embed.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
        self.table = sk.to_device(np.ones(n, dtype=np.float32), self.stream)
        self.n = n
        self.queue: deque[tuple[int, sk.DeviceOp]] = deque()

    def submit(self, rid: int, tokens: np.ndarray) -> None:
        out = sk.zeros(self.n, f32, self.stream)
        self.queue.append((rid, embed.launch_async(self.prep, sk.to_device(tokens, self.stream), self.table, out)))

    def drain(self) -> dict[int, np.ndarray]:
        results = {}
        while self.queue:
            rid, op = self.queue.popleft()
            _, _, out = op.sync_on(self.stream)
            (parts,) = halve(out.partition((64,))).sync_on(self.stream)
            results[rid] = parts.to_numpy(self.stream)
        return results


server = Server(sk.Device.cpu(), 256)
for rid in range(3):
    server.submit(rid, np.full(256, rid, dtype=np.float32))
print({k: v[0] for k, v in server.drain().items()})
