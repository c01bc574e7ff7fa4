# fresh-expect: clean
"""An autotuned saxpy with a separate output; the scalar comes last."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.autotune(configs=[32, 64], key=["x"], warmup=1, rep=1)
@simt.kernel
@simt.launch_contract(domain=1)
def saxpy(x: Slice[f32], y: Slice[f32], out: DisjointSlice[f32], alpha: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(alpha * x[i] + y[i])


stream = sk.Device.cpu().new_stream()
xs = sk.to_device(np.arange(200, dtype=np.float32), stream)
ys = sk.to_device(np.ones(200, np.float32), stream)
result = sk.zeros(200, f32, stream)
inputs = (xs, ys)
saxpy.launch(stream, *inputs, result, 2.0)
assert result.to_numpy(stream)[3] == 7.0
