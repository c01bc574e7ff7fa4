# fresh-expect: clean
"""A 1-D wave simulation that double-buffers by swapping two attributes after every step."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def relax(cur: Slice[f32], nxt: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(cur)
    if (o := nxt.get_mut(idx)) is not None:
        left = cur[i - 1] if i > 0 else cur[i]
        right = cur[i + 1] if i + 1 < n else cur[i]
        o.set((left + right) * f32(0.5))


class Wave:
    def __init__(self, dev: sk.Device, stream: sk.Stream, n: int) -> None:
        self.stream = stream
        init = np.zeros(n, dtype=np.float32)
        init[n // 2] = 1.0
        self.cur = sk.to_device(init, stream)
        self.nxt = sk.zeros(n, f32, stream)
        self.prep = relax.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)

    def step(self) -> None:
        relax.launch(self.prep, self.stream, self.cur, self.nxt)
        self.cur, self.nxt = self.nxt, self.cur

    def run(self, steps: int) -> np.ndarray:
        for _ in range(steps):
            self.step()
        return self.cur.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    wave = Wave(dev, dev.new_stream(), 200)
    print(float(wave.run(25).sum()))


if __name__ == "__main__":
    main()
