"""A workspace method hands out buffers cached by length only, counting the requests per role before its lookup
(`self.requests[role] += 1`): a statement ahead of the lookup that leaves the cache and its key alone is
bookkeeping, so the method is still a cache keyed by `n`, and two calls for one length give one buffer (E0499 when
both are a launch's outputs, as the runtime's `AliasingError` says)."""

from collections import Counter

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def bands(mid: Slice[f32], upper: DisjointSlice[f32], lower: DisjointSlice[f32]) -> None:
    hi = thread.index_1d()
    i = hi.get()
    if (u := upper.get_mut(hi)) is not None:
        u.set(mid[i] + 1.0)
    lo = thread.index_1d()
    if (d := lower.get_mut(lo)) is not None:
        d.set(mid[i] - 1.0)


class Workspace:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self._by_len: dict[int, sk.DeviceBuffer] = {}
        self.requests: Counter[str] = Counter()

    def buffer(self, n: int, role: str) -> sk.DeviceBuffer:
        self.requests[role] += 1
        if n not in self._by_len:
            self._by_len[n] = sk.zeros(n, f32, self.stream)
        return self._by_len[n]


def run(ws: Workspace, mid: sk.DeviceBuffer, prepared: simt.PreparedLaunch) -> None:
    upper = ws.buffer(len(mid), "upper")
    lower = ws.buffer(len(mid), "lower")
    bands.launch(prepared, ws.stream, mid, upper, lower)  # expect: E0499


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = bands.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    run(Workspace(stream), sk.zeros(64, f32, stream), prepared)


if __name__ == "__main__":
    main()
