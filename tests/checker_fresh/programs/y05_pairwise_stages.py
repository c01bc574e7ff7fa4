# fresh-expect: E0502 at line 39
# fresh-note: found since: a list repeated by an integer literal ([c] * 3, [a] + [c] * 3) is a container of the display items themselves; pairwise over it pairs them
"""A three-stage activation pipeline (relu, square, clamp) chained through stage buffers."""
from itertools import pairwise

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def activate(src: Slice[f32], dst: DisjointSlice[f32], mode: i32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        v = src[i]
        if mode == 0:
            v = max(v, f32(0.0))
        elif mode == 1:
            v = v * v
        else:
            v = min(v, f32(1.0))
        o.set(v)


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 4096
    rng = np.random.default_rng(2)
    host = rng.standard_normal(n).astype(np.float32)
    prep = activate.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)
    stages = [sk.to_device(host, stream)] + [sk.zeros(n, f32, stream)] * 3
    for mode, (src, dst) in enumerate(pairwise(stages)):
        activate.launch(prep, stream, src, dst, mode)
    result = stages[-1].to_numpy(stream)
    want = np.minimum(np.maximum(host, 0) ** 2, 1.0)
    np.testing.assert_allclose(result, want, rtol=1e-6)
    print("pipeline output mean", float(result.mean()))


if __name__ == "__main__":
    main()
