"""Method dispatch: a base class's method launches into `self.target()`, which a subclass overrides.  On an
object built from the base class the base's own `target` runs (a separate output), and the subclass's override
returns its own output too: nothing conflicts, whichever object a parameter annotated with the base is given."""

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
        self.spare = out

    def target(self) -> Any:
        return self.out

    def run(self, stream: Any) -> None:
        vecadd.launch(self.prep, stream, self.src, self.bias, self.target())


class SpareStage(Stage):
    def target(self) -> Any:
        return self.spare


def run_any(stage: Stage, stream: Any) -> None:
    stage.run(stream)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    b = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    Stage(prep, a, b, c).run(stream)
    stage = SpareStage(prep, a, b, c)
    stage.run(stream)
    run_any(stage, stream)
    vecadd.launch(prep, stream, a, b, stage.target())
