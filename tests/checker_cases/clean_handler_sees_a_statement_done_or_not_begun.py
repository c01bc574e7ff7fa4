"""The clean twin: the launch and the `sync_on` that hands `z` back are one statement, so an exception leaves the
`try` before it (nothing moved: a launch checks its arguments before it takes them) or after it (`z` rebound);
the `raise` on the next line finds `z` bound again.  Also a context manager's `__exit__` reading the fields a
method moved and stored back in one statement."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor


@tile.kernel
def scale(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z) * 2.0)


def run(stream: sk.Stream, budget: int) -> float:
    x = tile.ones((128,), f32).sync_on(stream)
    z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
    try:
        z, x = scale(z, x).sync_on(stream)
        if budget < 1:
            raise ValueError("no budget left")
    except ValueError:
        pass
    flat = z.unpartition()
    return float(flat.to_numpy(stream).sum())


class Session:
    def __init__(self, stream: sk.Stream) -> None:
        self.stream = stream
        self.z = tile.zeros((128,), f32).partition((64,)).sync_on(stream)
        self.x = tile.ones((128,), f32).sync_on(stream)

    def __enter__(self) -> "Session":
        return self

    def step(self) -> None:
        self.z, self.x = scale(self.z, self.x).sync_on(self.stream)

    def __exit__(self, *exc: object) -> None:
        self.z = scale(self.z, self.x).first().sync_on(self.stream)


def evening(stream: sk.Stream) -> None:
    with Session(stream) as session:
        for _ in range(2):
            session.step()


s = sk.Device.cpu().new_stream()
print(run(s, 0))
evening(s)
