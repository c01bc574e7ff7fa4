# fresh-expect: E0499 at line 41
# fresh-known-miss: cli,mypy a rotating deque pool of two output buffers with an OrderedDict of in-flight ops: the third launch_async reuses a slot a pending op writes
"""Serve activation requests: each request gets an output buffer from a small rotating
pool, its GELU-ish kernel is launched asynchronously, and results are collected later."""
from __future__ import annotations

import math
from collections import OrderedDict, deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 256


@simt.kernel
@simt.launch_contract(block=128)
def gelu_approx(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        v = x[i]
        o.set(v / (1.0 + math.exp(-1.702 * v)))


class Dispatcher:
    def __init__(self, dev: sk.Device, stream: sk.Stream, slots: int = 2) -> None:
        self.stream = stream
        self.slots = slots
        self.prepared = gelu_approx.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
        self.pool = deque(sk.zeros(N, f32, stream) for _ in range(slots))
        self.inflight: OrderedDict[int, tuple[sk.DeviceOp, sk.DeviceBuffer]] = OrderedDict()

    def submit(self, req_id: int, x: sk.DeviceBuffer) -> None:
        out = self.pool[0]
        self.pool.rotate(-1)
        self.inflight[req_id] = (gelu_approx.launch_async(self.prepared, x, out), out)

    def collect(self) -> dict[int, np.ndarray]:
        results = {}
        while self.inflight:
            req_id, (op, out) = self.inflight.popitem(last=False)
            op.sync_on(self.stream)
            results[req_id] = out.to_numpy(self.stream)
        return results


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    dispatcher = Dispatcher(dev, stream)
    rng = np.random.default_rng(2)
    inputs = {req: sk.to_device(rng.standard_normal(N).astype(np.float32), stream) for req in range(3)}
    for req, x in inputs.items():
        dispatcher.submit(req, x)
    for req, result in sorted(dispatcher.collect().items()):
        print(f"request {req}: mean activation {float(result.mean()):+.4f}")


if __name__ == "__main__":
    main()
