"""A loop that prefetches the next item's op only when one follows (`if k + 1 < len(items):`) runs the op it holds
at the top of every iteration: the last iteration has no next one, so nothing is used after a move.  Appending to
another list in the body (`results.append(...)`, `self.seen.append(...)`) does not change how many items the loop
counts; only a change of the counted list itself would."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def halve(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * f32(0.5))


class Scanner:
    def __init__(self, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.plan = halve.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
        self.seen: list[float] = []

    def _start(self, values: np.ndarray) -> tuple[sk.DeviceBuffer, sk.DeviceOp]:
        out = sk.zeros(N, f32, self.stream)
        return out, halve.launch_async(self.plan, sk.to_device(values.astype(np.float32), self.stream), out)

    def scan(self, batches: list[np.ndarray]) -> list[float]:
        results: list[float] = []
        out, op = self._start(batches[0])
        for k, _batch in enumerate(batches):
            op.sync_on(self.stream)
            peak = float(out.to_numpy(self.stream).max())
            results.append(peak)
            self.seen.append(peak)
            if peak > 100.0:
                return results
            if k + 1 < len(batches):
                out, op = self._start(batches[k + 1])
        return results


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(Scanner(dev, stream).scan([np.ones(N), np.full(N, 2.0), np.full(N, 3.0)]))


if __name__ == "__main__":
    main()
