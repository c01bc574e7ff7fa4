# fresh-expect: E0499 at line 42
"""An Overlapper starts an async launch in one method and stores the pending op on `self`; a fix-up method, called
before `finish`, writes the same output buffer with a synchronous launch."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def axpy(a: Slice[f32], b: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(a[i] * 2.0 + b[i])


@simt.kernel
@simt.launch_contract(block=64)
def fill(y: DisjointSlice[f32], value: f32) -> None:
    if (o := y.get_mut(thread.index_1d())) is not None:
        o.set(value)


class Overlapper:
    def __init__(self, dev, stream, n: int) -> None:
        self.stream = stream
        self.a = sk.to_device(np.ones(n, np.float32), stream)
        self.b = sk.to_device(np.ones(n, np.float32), stream)
        self.out = sk.zeros(n, f32, stream)
        self.axpy_launch = axpy.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
        self.fill_launch = fill.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
        self.pending = None

    def start(self) -> None:
        self.pending = axpy.launch_async(self.axpy_launch, self.a, self.b, self.out)

    def reset_output(self) -> None:
        fill.launch(self.fill_launch, self.stream, self.out, 0.0)

    def finish(self):
        assert self.pending is not None
        return self.pending.sync_on(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    job = Overlapper(dev, dev.new_stream(), 128)
    job.start()
    job.reset_output()  # BUG
    job.finish()


if __name__ == "__main__":
    main()
