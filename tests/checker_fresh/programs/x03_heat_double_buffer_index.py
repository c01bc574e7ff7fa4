# fresh-expect: E0502 at line 34
# fresh-note: found since: two reads of one container at indices equal by the affine rule (`self.fields[self.step_count % 2]`, `self.fields[(self.step_count + 2) % 2]`, nothing changing `self` between) are one object (core.computed_items), both front ends, line 34
"""A 1-D heat-equation solver that ping-pongs between two fields picked by step parity."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def diffuse(cur: Slice[f32], nxt: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(cur)
    left = cur[i - 1] if i > 0 else cur[i]
    right = cur[i + 1] if i + 1 < n else cur[i]
    if (o := nxt.get_mut(idx)) is not None:
        o.set(cur[i] + alpha * (left - f32(2.0) * cur[i] + right))


class HeatSolver:
    def __init__(self, dev: sk.Device, stream: sk.Stream, init: np.ndarray) -> None:
        self.stream = stream
        self.fields = [sk.to_device(init, stream), sk.zeros(len(init), f32, stream)]
        self.prep = diffuse.prepare(simt.LaunchConfig1D.for_len(len(init), block=64), dev)
        self.step_count = 0

    def step(self) -> None:
        cur = self.fields[self.step_count % 2]
        nxt = self.fields[(self.step_count + 2) % 2]  # meant + 1
        diffuse.launch(self.prep, self.stream, cur, nxt, 0.1)
        self.step_count += 1

    def result(self) -> np.ndarray:
        return self.fields[self.step_count % 2].to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    init = np.zeros(256, dtype=np.float32)
    init[128] = 100.0
    solver = HeatSolver(dev, stream, init)
    for _ in range(10):
        solver.step()
    print(solver.result().sum())


if __name__ == "__main__":
    main()
