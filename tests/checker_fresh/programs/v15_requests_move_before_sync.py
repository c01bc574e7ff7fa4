# fresh-expect: E0505 at line 45
# fresh-note: found since: a callee's launch moving a path below its parameter applies to any argument that is a place (a dataclass request), and a loop item rebound to other known objects no longer keeps the previous one's unknown paths (the false E0499 at 43 is gone)
"""Async request handling: each request launches its kernel async; results are post-processed in tiles."""
from dataclasses import dataclass

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
def clamp(out: Partition[f32]) -> None:
    out.store(out.load() * 0.5)


@dataclass
class Request:
    rid: int
    tokens: sk.DeviceBuffer
    out: sk.DeviceBuffer


dev = sk.Device.cpu()
stream = dev.new_stream()
prep = embed.prepare(simt.LaunchConfig1D.for_len(256, block=128), dev)
table = sk.to_device(np.ones(256, dtype=np.float32), stream)
requests = [Request(r, sk.to_device(np.full(256, r, np.float32), stream), sk.zeros(256, f32, stream)) for r in (0, 1)]
in_flight: dict[int, sk.DeviceOp] = {}
for req in requests:
    in_flight[req.rid] = embed.launch_async(prep, req.tokens, table, req.out)
first = requests[0]
parts = first.out.partition((64,))
(parts,) = clamp(parts).sync_on(stream)
for op in in_flight.values():
    op.sync_on(stream)
print(parts.to_numpy(stream)[:2])
