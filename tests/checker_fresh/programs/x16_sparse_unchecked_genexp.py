# fresh-expect: E0133 at line 31
# fresh-known-miss: cli,mypy generator expression of launch_unchecked built inside with simt.unsafe(): and consumed after the block (for _ in launches): the launches run outside the unsafe block
"""Sparse row scaling with a contract-less kernel: unchecked launches are built in an unsafe block, run later."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
def scale_rows(vals: Slice[f32], row_scale: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(vals[i] * row_scale[i])


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    nnz_per_chunk = [64, 128, 32]
    chunks = []
    for nnz in nnz_per_chunk:
        vals = sk.to_device(np.ones(nnz, dtype=np.float32), stream)
        scales = sk.to_device(np.full(nnz, 2.0, dtype=np.float32), stream)
        chunks.append((vals, scales, sk.zeros(nnz, f32, stream), nnz))
    with simt.unsafe():  # each config covers exactly nnz threads, reviewed
        launches = (
            scale_rows.launch_unchecked(simt.LaunchConfig1D(grid=1, block=nnz), stream, v, s, o)
            for v, s, o, nnz in chunks
        )
    for _ in launches:  # the generator runs its launches here, after the unsafe block ended
        pass
    print(sum(float(o.to_numpy(stream).sum()) for _v, _s, o, _n in chunks))


if __name__ == "__main__":
    main()
