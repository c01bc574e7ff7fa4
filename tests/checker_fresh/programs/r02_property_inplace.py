# fresh-expect: E0502 at line 32
# fresh-note: the runtime raises at line 32, the launch inside `forward` (called from line 42 through line 47), where both front ends report it: the property returning `self._scratch if self._scratch is not None else self.act` is followed (either attribute); the header named the call line before
"""An activation layer exposes its output through a property; configured in-place, the property hands back the
activation buffer itself, which the forward pass also reads."""
import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def relu(x: Slice[f32], y: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := y.get_mut(idx)) is not None:
        o.set(max(x[i], 0.0))


class ReLU:
    def __init__(self, n: int, stream, *, inplace: bool = False) -> None:
        self.act = sk.to_device(np.linspace(-1, 1, n).astype(np.float32), stream)
        self._scratch = None if inplace else sk.zeros(n, f32, stream)

    @property
    def output(self):
        return self._scratch if self._scratch is not None else self.act

    def forward(self, prepared, stream) -> None:
        relu.launch(prepared, stream, self.act, self.output)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 128
    prepared = relu.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    layers = [ReLU(n, stream), ReLU(n, stream, inplace=True)]
    for layer in layers:
        layer.forward(prepared, stream)  # BUG
    print(layers[0].output.to_numpy(stream)[-3:])


if __name__ == "__main__":
    main()
