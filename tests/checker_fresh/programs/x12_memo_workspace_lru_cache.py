# fresh-expect: E0499 at line 39
# fresh-note: found since: calls of a memoised method (`@functools.lru_cache`) with equal arguments (a receiver and an argument each with one value in the function) give one object, so `ws.scratch(n)` twice is one buffer
"""Per-size scratch buffers are memoized so repeated calls do not allocate; a min/max pass needs two of them."""
import functools

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def window_minmax(x: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    j = min(i + 1, len(x) - 1)
    if (a := lo.get_mut(idx)) is not None:
        a.set(min(x[i], x[j]))
    idx2 = thread.index_1d()
    if (b := hi.get_mut(idx2)) is not None:
        b.set(max(x[i], x[j]))


class Workspace:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream

    @functools.lru_cache(maxsize=8)
    def scratch(self, n: int) -> sk.DeviceBuffer[f32]:
        return sk.zeros(n, f32, self.stream)


def envelope(ws: Workspace, prep: simt.PreparedLaunch, x: sk.DeviceBuffer[f32], n: int) -> tuple[np.ndarray, np.ndarray]:
    lo = ws.scratch(n)
    hi = ws.scratch(n)  # same size: the cache hands back the same buffer
    window_minmax.launch(prep, ws.stream, x, lo, hi)
    return lo.to_numpy(ws.stream), hi.to_numpy(ws.stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 200
    x = sk.to_device(np.sin(np.arange(n, dtype=np.float32)), stream)
    prep = window_minmax.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    lo, hi = envelope(Workspace(stream), prep, x, n)
    print(float((hi - lo).mean()))


if __name__ == "__main__":
    main()
