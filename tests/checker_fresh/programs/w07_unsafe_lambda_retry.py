# fresh-expect: E0133 at line 39
"""A benchmark harness skips validation for speed; the fast launch is wrapped in a retry lambda."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def scale(x: Slice[f32], out: DisjointSlice[f32], factor: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i] * factor)


def with_retries(fn, attempts: int = 2) -> None:
    for attempt in range(attempts):
        try:
            fn()
            return
        except sk.DeviceError:
            if attempt + 1 == attempts:
                raise


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 512
    x = sk.to_device(np.arange(n, dtype=np.float32), stream)
    out = sk.zeros(n, f32, stream)
    config = simt.LaunchConfig1D.for_len(n, block=128)
    with simt.unsafe():
        scale.launch_unchecked(config, stream, x, out, 2.0)
        with_retries(lambda: scale.launch_unchecked(config, stream, x, out, 3.0))
    print(out.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
