# fresh-expect: clean
"""Inference server whose Workspace hands every request its own output buffer; jobs are synced at the end."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HIDDEN = 256


@simt.kernel
@simt.launch_contract(block=128)
def score(query: Slice[f32], keys: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(query[i] * keys[i])


class Workspace:
    def __init__(self, stream) -> None:
        self.stream = stream
        self.handed_out = 0

    def scratch(self, n: int) -> sk.DeviceBuffer:
        self.handed_out += 1
        return sk.zeros(n, f32, self.stream)


@dataclass
class Request:
    rid: str
    query: np.ndarray


def serve(batch: list[Request], dev: sk.Device) -> dict[str, float]:
    stream = dev.new_stream()
    ws = Workspace(stream)
    keys = sk.to_device(np.ones(HIDDEN, dtype=np.float32), stream)
    prep = score.prepare(simt.LaunchConfig1D.for_len(HIDDEN, block=128), dev)
    jobs = {}
    for req in batch:
        q = sk.to_device(req.query, stream)
        jobs[req.rid] = score.launch_async(prep, q, keys, ws.scratch(HIDDEN))
    results = {}
    for rid, op in jobs.items():
        _, _, out = op.sync_on(stream)
        results[rid] = float(out.to_numpy(stream).sum())
    return results


if __name__ == "__main__":
    batch = [Request(f"r{k}", np.full(HIDDEN, k, dtype=np.float32)) for k in range(3)]
    print(serve(batch, sk.Device.cpu()))
