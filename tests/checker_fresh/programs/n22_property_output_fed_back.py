# fresh-expect: E0502 at line 30
"""A layer exposes its output through a property; feeding it back in makes the launch read what it writes."""
import numpy as np
import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def vecadd(a: Slice[f32], b: Slice[f32], c: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := c.get_mut(idx)) is not None:
        o.set(a[i] + b[i])


class Layer:
    def __init__(self, bias, out, prepared) -> None:
        self._bias = bias
        self._out = out
        self._prepared = prepared

    @property
    def output(self):
        return self._out

    def forward(self, x, stream) -> None:
        vecadd.launch(self._prepared, stream, x, self._bias, self._out)


dev = sk.Device.cpu()
stream = dev.new_stream()
n = 64
layer = Layer(sk.to_device(np.ones(n, np.float32), stream), sk.zeros(n, f32, stream),
              vecadd.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev))
layer.forward(sk.to_device(np.arange(n, dtype=np.float32), stream), stream)
layer.forward(layer.output, stream)  # BUG E0502
