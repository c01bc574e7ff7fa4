"""A class-based context manager of the module: its `__enter__` starts an async launch writing its own staging
buffer (the op pending in `self.op`) and returns itself, its `__exit__` syncs the op.  `with Prefetcher(...) as pf:`
binds `pf` to the constructed object, so the block partitioning `pf.staged` moves a buffer the pending decode still
borrows (`BorrowError` at run time); `with stager:` of an existing object of such a class is followed too."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 128


@simt.kernel
@simt.launch_contract(block=64)
def scale(src: Slice[f32], out: DisjointSlice[f32], k: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] * k)


class Prefetcher:
    def __init__(self, raw: np.ndarray, dev: sk.Device, stream: sk.Stream) -> None:
        self.stream = stream
        self.raw = sk.to_device(raw, stream)
        self.staged = sk.zeros(len(raw), f32, stream)
        self.prepared = scale.prepare(simt.LaunchConfig1D.for_len(len(raw), block=64), dev)
        self.op: sk.DeviceOp | None = None

    def __enter__(self) -> "Prefetcher":
        self.op = scale.launch_async(self.prepared, self.raw, self.staged, 0.5)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.op is not None:
            self.op.sync_on(self.stream)
            self.op = None


def load(batches: list[np.ndarray], dev: sk.Device, stream: sk.Stream) -> list[float]:
    means = []
    for raw in batches:
        with Prefetcher(raw, dev, stream) as pf:
            parts = pf.staged.partition((64,))  # expect: E0505
            means.append(float(parts.unpartition().to_numpy(stream).mean()))
    return means


def reuse(stager: Prefetcher, stream: sk.Stream) -> float:
    with stager:
        parts = stager.staged.partition((64,))  # expect: E0505
        stager.staged = parts.unpartition()
    return float(stager.staged.to_numpy(stream).mean())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(load([np.ones(N, np.float32)], dev, stream))
    print(reuse(Prefetcher(np.ones(N, np.float32), dev, stream), stream))


if __name__ == "__main__":
    main()
