"""A class-based context manager of the module: its `__enter__` starts an async launch writing its own staging
buffer and returns itself, its `__exit__` syncs the op.  The buffer is partitioned only once the block is left (the
op has run), in a loop building a new object each iteration (`pf.staged` is that object's buffer, not the one the
previous iteration partitioned); `with stager:` of an existing object reads its buffer after the block too."""

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
            print(f"decoding {len(raw)} samples")
        parts = pf.staged.partition((64,))
        means.append(float(parts.unpartition().to_numpy(stream).mean()))
    return means


def reuse(stager: Prefetcher, stream: sk.Stream) -> float:
    with stager:
        print("decoding")
    parts = stager.staged.partition((64,))
    stager.staged = parts.unpartition()
    return float(stager.staged.to_numpy(stream).mean())


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    print(load([np.ones(N, np.float32), np.ones(N, np.float32)], dev, stream))
    print(reuse(Prefetcher(np.ones(N, np.float32), dev, stream), stream))


if __name__ == "__main__":
    main()
