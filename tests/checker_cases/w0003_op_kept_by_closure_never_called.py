"""The twin of `clean_w0003_op_kept_by_escaping_closure`: the nested function that would run the op is neither
called nor handed out, so the op is dropped unrun when the enclosing function returns: W0003 where it is bound,
as the runtime's `UnusedDeviceOpWarning`."""

from typing import Any

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def add(z: Partition[f32], x: Tensor[f32], y: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) + tile.load_like(y, z))


def make_finisher(stream: sk.Stream) -> None:
    pending: Any = add(  # expect: W0003
        tile.zeros((128,), f32).partition((64,)), tile.ones((128,), f32), tile.ones((128,), f32)
    )

    def finish() -> Any:
        nonlocal pending
        done, pending = pending, None
        return done.sync_on(stream)


def main() -> None:
    stream = sk.Device.cpu().new_stream()
    make_finisher(stream)
