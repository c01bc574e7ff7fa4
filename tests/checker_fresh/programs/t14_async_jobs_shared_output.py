# fresh-expect: E0499 at line 31
# A loop stores each launch_async op in a dict, every one writing `self.out`.
"""A batch runner queues one async launch per request, but every request writes the same output buffer."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


class BatchRunner:
    def __init__(self, n: int, dev, stream) -> None:
        self.stream = stream
        self.prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
        self.out = sk.zeros(n, f32, stream)

    def run(self, requests: dict) -> dict:
        inflight = {}
        for name, (buf, gain) in requests.items():
            inflight[name] = scale.launch_async(self.prep, buf, self.out, gain)  # BUG: one output for all
        results = {}
        for name, op in inflight.items():
            op.sync_on(self.stream)
            results[name] = self.out.to_numpy(self.stream).copy()
        return results


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    runner = BatchRunner(256, dev, stream)
    requests = {
        "a": (sk.to_device(np.ones(256, np.float32), stream), 2.0),
        "b": (sk.to_device(np.arange(256, dtype=np.float32), stream), 0.5),
    }
    for name, values in runner.run(requests).items():
        print(name, values[:3])


if __name__ == "__main__":
    main()
