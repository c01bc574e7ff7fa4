# fresh-expect: E0499 at line 43
"""A toy inference server: each request's scoring kernel is queued with launch_async and collected at the end."""

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


@dataclass
class Request:
    rid: str
    query: np.ndarray


class Server:
    def __init__(self, dev: sk.Device) -> None:
        self.dev = dev
        self.stream = dev.new_stream()
        self.keys = sk.to_device(np.ones(HIDDEN, dtype=np.float32), self.stream)
        self.scores = sk.zeros(HIDDEN, f32, self.stream)  # one output buffer for the whole batch
        self.prep = score.prepare(simt.LaunchConfig1D.for_len(HIDDEN, block=128), dev)

    def serve(self, batch: list[Request]) -> dict[str, float]:
        jobs = {}
        for req in batch:
            q = sk.to_device(req.query, self.stream)
            jobs[req.rid] = score.launch_async(self.prep, q, self.keys, self.scores)
        results = {}
        for rid, op in jobs.items():
            _, _, out = op.sync_on(self.stream)
            results[rid] = float(out.to_numpy(self.stream).sum())
        return results


if __name__ == "__main__":
    server = Server(sk.Device.cpu())
    batch = [Request(f"r{k}", np.full(HIDDEN, k, dtype=np.float32)) for k in range(3)]
    print(server.serve(batch))
