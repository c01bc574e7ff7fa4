# fresh-expect: E0499 at line 39
"""Per-feature statistics into an output dict: a copy-paste slip passes `mean` for both outputs."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32, i32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def moments(x: Slice[f32], mean: DisjointSlice[f32], sq: DisjointSlice[f32], rows: i32) -> None:
    idx = thread.index_1d()
    col = idx.get()
    cols = len(mean)
    total = f32(0.0)
    total_sq = f32(0.0)
    for r in range(rows):
        v = x[r * cols + col]
        total += v
        total_sq += v * v
    if (m := mean.get_mut(idx)) is not None:
        m.set(total / rows)
    # the second output is written through its own index
    idx2 = thread.index_1d()
    if (s := sq.get_mut(idx2)) is not None:
        s.set(total_sq / rows)


def feature_stats(data: np.ndarray, dev, stream) -> dict:
    rows, cols = data.shape
    x = sk.to_device(data.reshape(-1), stream)
    mean_buf = sk.zeros(cols, f32, stream)
    sq_buf = sk.zeros(cols, f32, stream)
    outs = {"mean": mean_buf, "sq": sq_buf}
    prep = moments.prepare(simt.LaunchConfig1D.for_len(cols, block=64), dev)
    moments.launch(prep, stream, x, outs["mean"], outs["mean"], rows)  # BUG: copy-paste, should be "sq"
    return {k: v.to_numpy(stream) for k, v in outs.items()}


if __name__ == "__main__":
    dev = sk.Device.cpu()
    data = np.arange(32 * 64, dtype=np.float32).reshape(32, 64) / 100.0
    stats = feature_stats(data, dev, dev.new_stream())
    print(stats["mean"][:3], stats["sq"][:3])
