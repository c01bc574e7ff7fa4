"""A hand-written cache method called on an object an attribute holds (`self.workspace.get(...)`): the cache is
keyed by the length only, so two calls that agree on it give back one buffer whatever their other arguments, and
the launch reads and writes it (E0502, as the runtime's `AliasingError` says).  The checker cannot tell the two
receivers apart, so it takes them to be the same object."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def double(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0))


class Workspace:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._pool: dict[int, sk.DeviceBuffer] = {}

    def get(self, role: str, n: int) -> sk.DeviceBuffer:
        if n not in self._pool:
            self._pool[n] = sk.zeros(n, f32, self.stream)
        return self._pool[n]


class Doubler:
    def __init__(self, prepared: simt.PreparedLaunch, stream: sk.Stream, n: int) -> None:
        self.prepared = prepared
        self.stream = stream
        self.n = n
        self.workspace = Workspace(stream)

    def run(self, data: np.ndarray) -> np.ndarray:
        src = self.workspace.get("input", self.n)
        src.copy_from_numpy(data, self.stream)
        dst = self.workspace.get("output", self.n)
        double.launch(self.prepared, self.stream, src, dst)  # expect: E0502
        return dst.to_numpy(self.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = double.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    print(Doubler(prepared, stream, 64).run(np.ones(64, np.float32)))


if __name__ == "__main__":
    main()
