"""The twin of `clean_op_returned_by_method_or_call_object`: an op a method, a `@classmethod` or an object's
`__call__` returns, dropped as a bare statement, is never run: W0003 at the line inside the method that built it
(the line the runtime's `UnusedDeviceOpWarning` names), labelled with the caller's statement, as for a plain helper."""

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
        return add(z, x, y)  # expect: W0003

    @classmethod
    def build(cls, z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y)  # expect: W0003


class Step:
    def __call__(self, z: Any, x: Any, y: Any) -> Any:
        return add(z, x, y)  # expect: W0003


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    x = tile.ones((128,), f32).sync_on(stream)
    y = tile.ones((128,), f32).sync_on(stream)
    Runner().launch(z, x, y)
    z2 = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    x2 = tile.ones((128,), f32).sync_on(stream)
    y2 = tile.ones((128,), f32).sync_on(stream)
    Runner.build(z2, x2, y2)
    z3 = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    x3 = tile.ones((128,), f32).sync_on(stream)
    y3 = tile.ones((128,), f32).sync_on(stream)
    Step()(z3, x3, y3)
