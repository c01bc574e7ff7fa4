# fresh-expect: E0502 at line 63
# fresh-note: found since: an object made by calling a class a `for` takes from a display of the module's classes (`for kind, bias in zip(kinds, biases): stage = kind(...)`) may be an object of each, its overrides run (reported at the call stage.run, on the runtime's stack)
"""A tiny layer pipeline: each stage adds a bias vector to its input. The memory-saving
variant of a stage writes its result over its input instead of a fresh buffer."""
from __future__ import annotations

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 768


@simt.kernel
@simt.launch_contract(block=256)
def add_bias(src: Slice[f32], bias: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(src[i] + bias[i])


class BiasStage:
    def __init__(self, prepared, src: sk.DeviceBuffer, bias: sk.DeviceBuffer, stream: sk.Stream,
                 spare: sk.DeviceBuffer | None = None) -> None:
        self.prepared = prepared
        self.src = src
        self.bias = bias
        self.spare = spare  # a dead buffer a subclass may write into instead of allocating
        self._out = sk.zeros(len(src), f32, stream)

    @property
    def target(self) -> sk.DeviceBuffer:
        return self._out

    def run(self, stream: sk.Stream) -> sk.DeviceBuffer:
        add_bias.launch(self.prepared, stream, self.src, self.bias, self.target)
        return self.target


class InPlaceBias(BiasStage):
    """Same computation, without holding a second activation buffer."""

    @property
    def target(self) -> sk.DeviceBuffer:
        return self.src


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    prepared = add_bias.prepare(simt.LaunchConfig1D.for_len(N, block=256), dev)
    x = sk.to_device(np.linspace(-1.0, 1.0, N, dtype=np.float32), stream)
    biases = [sk.to_device(np.full(N, b, np.float32), stream) for b in (0.5, -0.25, 1.0)]
    kinds = [BiasStage, InPlaceBias, BiasStage]

    h, spare = x, None
    for kind, bias in zip(kinds, biases):
        stage = kind(prepared, h, bias, stream, spare=spare)
        spare, h = h, stage.run(stream)
        print(f"{kind.__name__:>12}: mean {float(h.to_numpy(stream).mean()):+.4f}")


if __name__ == "__main__":
    main()
