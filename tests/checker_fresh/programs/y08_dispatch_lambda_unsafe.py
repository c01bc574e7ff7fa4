# fresh-expect: E0133 at line 33
"""Pick a launch strategy from a dispatch table: validated launches or raw launches for hot loops."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def axpy(alpha: f32, x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 2000
    rng = np.random.default_rng(19)
    x_np = rng.standard_normal(n).astype(np.float32)
    y_np = rng.standard_normal(n).astype(np.float32)
    x, y = sk.to_device(x_np, stream), sk.to_device(y_np, stream)
    out = sk.zeros(n, f32, stream)
    config = simt.LaunchConfig1D.for_len(n, block=128)
    prep = axpy.prepare(config, dev)
    strategies = {
        "checked": lambda *args: axpy.launch(prep, stream, *args),
        "raw": lambda *args: axpy.launch_unchecked(config, stream, *args),
    }
    mode = "raw" if n > 1000 else "checked"
    with simt.unsafe():  # the raw path skips validation; config was built for this kernel above
        strategies[mode](3.0, x, y, out)
    np.testing.assert_allclose(out.to_numpy(stream), 3.0 * x_np + y_np, rtol=1e-6)
    print("axpy via", mode, "launch ok")


if __name__ == "__main__":
    main()
