# fresh-expect: E0499 at line 34
# fresh-note: found since: a `for` over `zip(xs, itertools.cycle(outputs))` / `itertools.repeat(x)` takes one object for the recurring items over all iterations, and a tuple display stored into a list keeps the op inside it
"""Scale several input batches asynchronously, rotating through a small set of output buffers."""
from itertools import cycle

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def scale(x: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 512
    rng = np.random.default_rng(5)
    batches = [rng.standard_normal(n).astype(np.float32) for _ in range(3)]
    inputs = [sk.to_device(b, stream) for b in batches]
    outputs = [sk.zeros(n, f32, stream) for _ in range(2)]
    prep = scale.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    pending = []
    for x, out in zip(inputs, cycle(outputs)):
        pending.append((scale.launch_async(prep, x, out, 0.5), out))
    results = []
    for op, out in pending:
        op.sync_on(stream)
        results.append(out.to_numpy(stream))
    for got, want in zip(results, batches):
        np.testing.assert_allclose(got, 0.5 * want)
    print("scaled", len(results), "batches")


if __name__ == "__main__":
    main()
