"""Two views carved after a header whose size is a module constant (`HEADER = 1`), the second starting where the
first ends: a launch writing both writes disjoint memory."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

HEADER = 1
N = 32


@simt.kernel
@simt.launch_contract(block=32)
def split_planes(src: Slice[f32], re: DisjointSlice[f32], im: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (r := re.get_mut(thread.index_1d())) is not None:
        r.set(src[i])
    if (m := im.get_mut(thread.index_1d())) is not None:
        m.set(-src[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prepared = split_planes.prepare(simt.LaunchConfig1D.for_len(N, block=32), dev)
    src = sk.to_device(np.arange(N, dtype=np.float32), stream)
    state = sk.zeros(HEADER + 2 * N, f32, stream)
    re = state.view(HEADER, HEADER + N)
    im = state.view(HEADER + N, HEADER + 2 * N)
    split_planes.launch(prepared, stream, src, re, im)
    print(state.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
