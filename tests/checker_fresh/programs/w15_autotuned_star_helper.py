# fresh-expect: E0502 at line 23
# fresh-note: found since: a helper's `*args` tuple holds the call's extra positional arguments, in order
"""An autotuned saxpy behind a thin wrapper that forwards its buffers with *args."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.autotune(configs=[64, 128], key=["x"], warmup=1, rep=1)
@simt.kernel
@simt.launch_contract(domain=1)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


def run_saxpy(stream: sk.Stream, *buffers: sk.DeviceBuffer[f32], alpha: float = 1.0) -> None:
    saxpy.launch(stream, *buffers, alpha)


def residual_update(stream: sk.Stream, hidden: sk.DeviceBuffer[f32], delta: sk.DeviceBuffer[f32],
                    out: sk.DeviceBuffer[f32]) -> None:
    run_saxpy(stream, delta, hidden, out, alpha=0.5)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    n = 256
    hidden = sk.to_device(np.ones(n, dtype=np.float32), stream)
    delta = sk.to_device(np.arange(n, dtype=np.float32), stream)
    fresh = sk.zeros(n, f32, stream)
    residual_update(stream, hidden, delta, fresh)
    print(fresh.to_numpy(stream)[:4])
    run_saxpy(stream, delta, hidden, hidden, alpha=0.5)
    print(hidden.to_numpy(stream)[:4])


if __name__ == "__main__":
    main()
