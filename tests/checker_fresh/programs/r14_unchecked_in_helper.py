# fresh-expect: E0133 at line 25
"""A benchmark harness wraps `launch_unchecked` in a helper and calls it from inside `with simt.unsafe():`; the
unsafe block does not extend into the helper."""
import time

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def scale(x: Slice[f32], y: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(x[i] * alpha)


def timed_raw_launch(kernel, config, stream, *args) -> float:
    start = time.perf_counter()
    kernel.launch_unchecked(config, stream, *args)  # BUG
    return time.perf_counter() - start


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 128
    x = sk.to_device(np.ones(n, np.float32), stream)
    y = sk.zeros(n, f32, stream)
    config = simt.LaunchConfig1D.for_len(n, block=64)
    with simt.unsafe():
        elapsed = timed_raw_launch(scale, config, stream, x, y, 2.0)
    print(f"{elapsed:.6f}s", y.to_numpy(stream)[:2])


if __name__ == "__main__":
    main()
