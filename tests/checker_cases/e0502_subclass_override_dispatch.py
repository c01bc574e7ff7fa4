"""Method dispatch: a base class's method launches into `self.target()`, which a subclass overrides to return
its input.  Called on an object built from the subclass, the inherited method runs the override, so the launch
reads and writes one buffer (E0502 at the call, as rustc reports a conflict a call's arguments make); called on
a parameter annotated with the base class, any subclass's object may come in, so every override counts."""

from typing import Any

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


class Stage:
    def __init__(self, prep: Any, src: Any, bias: Any, out: Any) -> None:
        self.prep = prep
        self.src = src
        self.bias = bias
        self.out = out

    def target(self) -> Any:
        return self.out

    def run(self, stream: Any) -> None:
        vecadd.launch(self.prep, stream, self.src, self.bias, self.target())


class InPlaceStage(Stage):
    def target(self) -> Any:
        return self.src


def run_any(stage: Stage, stream: Any) -> None:
    stage.run(stream)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    stage = InPlaceStage(prep, a, b, c)
    stage.run(stream)  # expect: E0502
    out = stage.target()
    vecadd.launch(prep, stream, b, a, out)  # expect: E0502
