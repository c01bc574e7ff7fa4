# fresh-expect: E0499 at line 35
"""Level-synchronous BFS on a ring graph: each level marks neighbours of the frontier with atomics."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

N = 512


@simt.kernel
@simt.launch_contract(block=128)
def expand(frontier: Slice[i32], nbrs: Slice[i32], visited: AtomicSlice[i32], discovered: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(frontier):
        if frontier[i] == 1:
            v = nbrs[i]
            if visited.fetch_add(v, i32(1)) == 0:
                discovered.fetch_add(0, i32(1))


def bfs_levels(levels: int, dev: sk.Device) -> int:
    stream = dev.new_stream()
    nbrs = sk.to_device((np.arange(N, dtype=np.int32) + 1) % N, stream)
    start = np.zeros(N, dtype=np.int32)
    start[0] = 1
    frontier = sk.to_device(start, stream)
    visited = sk.to_device(start.copy(), stream)
    counter = sk.zeros(1, i32, stream)
    prep = expand.prepare(simt.LaunchConfig1D.for_len(N, block=128), dev)
    for _ in range(levels):
        expand.launch(prep, stream, frontier, nbrs, visited, visited)  # copy-paste: should be `counter`
        frontier = sk.to_device((visited.to_numpy(stream) == 1).astype(np.int32), stream)
    return int(counter.to_numpy(stream)[0])


if __name__ == "__main__":
    print(bfs_levels(3, sk.Device.cpu()))
