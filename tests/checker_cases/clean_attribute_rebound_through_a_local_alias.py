"""A leapfrog step names the state object by a short local (`s = self.state`), moves `s.x` into a tile launch and
binds `s.x` again to the launch's result.  `s` and `self.state` are one object, so `self.state.x` is the new
tensor too: the next step's launch (through `self.state.x` in another method) reads a live value, clean."""

from dataclasses import dataclass

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def drift(out: Partition[f32], x: Tensor[f32]) -> None:
    out.store(tile.load_like(x, out) + 1.0)


@dataclass
class State:
    x: Tensor
    v: Tensor


class Integrator:
    def __init__(self, state: State, stream: sk.Stream) -> None:
        self.state = state
        self.stream = stream

    def advance(self, base: Tensor) -> Tensor:
        out, _ = drift(tile.zeros((N,), f32).partition((16,)), base).sync_on(self.stream)
        return out.unpartition()

    def step(self) -> None:
        s = self.state
        s.x = self.advance(s.x)
        self.report()

    def report(self) -> None:
        print(self.state.x.to_numpy(self.stream)[:2])


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    state = State(tile.zeros((N,), f32).sync_on(stream), tile.zeros((N,), f32).sync_on(stream))
    sim = Integrator(state, stream)
    for _ in range(3):
        sim.step()


if __name__ == "__main__":
    main()
