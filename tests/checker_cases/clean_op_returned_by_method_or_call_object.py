"""An op that a method, a `@classmethod` or an object's `__call__` builds and returns on every path is that op at
the call, as one a plain helper returns: it is never None, so the `if op is None` arm, where the tensors moved
into the launch would stay moved, cannot run, and the values `sync_on` hands back are the ones used after it."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


class Runner:
    def launch(self, z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y)

    @classmethod
    def build(cls, z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y)


class Step:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream

    def __call__(self, z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y)


def by_method(stream: sk.Stream, z: Any, x: Any, y: Any) -> Any:
    op = Runner().launch(z, x, y)
    if op is not None:
        z, x, y = op.sync_on(stream)
    return add(z, x, y).sync_on(stream)


def by_classmethod(stream: sk.Stream, z: Any, x: Any, y: Any) -> Any:
    op = Runner.build(z, x, y)
    if op is not None:
        z, x, y = op.sync_on(stream)
    return add(z, x, y).sync_on(stream)


def by_call_object(stream: sk.Stream, z: Any, x: Any, y: Any) -> Any:
    op = Step(stream)(z, x, y)
    if op is not None:
        z, x, y = op.sync_on(stream)
    return add(z, x, y).sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    for run in (by_method, by_classmethod, by_call_object):
        z = tile.zeros((128,), f32).partition((64,))
        x = tile.ones((128,), f32)
        y = tile.ones((128,), f32)
        z, x, y = run(stream, z, x, y)
