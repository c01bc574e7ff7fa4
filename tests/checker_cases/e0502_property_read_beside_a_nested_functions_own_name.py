"""A nested function binding a name of its own (`held = 3` in `report`) does not make the caller's `held` a
name the nested function may change: Python makes `held` local to `report`.  So `held.target`, a property
returning `self.bufs["inp"]`, is still that item in the caller, and passing it as input and output is E0502."""

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
    if (out := c.get_mut(idx)) is not None:
        out.set(a[i] + b[i])


class Holder1:
    def __init__(self, stream: Any) -> None:
        self.bufs = {"inp": sk.zeros(64, f32, stream), "out": sk.zeros(64, f32, stream)}

    @property
    def target(self) -> Any:
        return self.bufs["inp"]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = vecadd.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    held = Holder1(stream)
    vecadd.launch(prep, stream, held.target, held.target, held.target)  # expect: E0502

    def report() -> None:
        held = 3
        print(held)

    report()


if __name__ == "__main__":
    main()
