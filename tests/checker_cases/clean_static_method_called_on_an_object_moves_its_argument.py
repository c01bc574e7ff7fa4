"""A `@staticmethod` (or `@classmethod`) called on an object runs as called on its class: the tile launch inside
moves the tensor the caller passes and hands it back, so each caller passes the tensor the previous call returned
and nothing reads a moved one."""

import safekernels as sk
from safekernels import tile
from safekernels.dtypes import f32
from safekernels.tile import Partition, Tensor

N = 64


@tile.kernel
def copy_in(z: Partition[f32], x: Tensor[f32]) -> None:
    z.store(tile.load_like(x, z))


class Mixer:
    @staticmethod
    def blend(t: sk.DeviceOp[f32], s: sk.Stream) -> tuple[sk.DeviceOp[f32], sk.DeviceOp[f32]]:
        z = tile.zeros((N,), f32).partition((16,))
        z, t = copy_in(z, t).sync_on(s)
        return z.unpartition(), t

    @classmethod
    def scaled(cls, t: sk.DeviceOp[f32], s: sk.Stream) -> tuple[sk.DeviceOp[f32], sk.DeviceOp[f32]]:
        z = tile.zeros((N,), f32).partition((16,))
        z, t = copy_in(z, t).sync_on(s)
        return z.unpartition(), t

    def twice(self, t: sk.DeviceOp[f32], s: sk.Stream) -> None:
        out, t = self.blend(t, s)
        print(out, self.blend(t, s)[0])

    def twice_scaled(self, t: sk.DeviceOp[f32], s: sk.Stream) -> None:
        out, t = self.scaled(t, s)
        print(out, self.scaled(t, s)[0])


def on_an_object(s: sk.Stream) -> None:
    mixer = Mixer()
    t = tile.ones((N,), f32).sync_on(s)
    out, t = mixer.blend(t, s)
    print(out, mixer.blend(t, s)[0])


def main() -> None:
    s = sk.Device.cpu().new_stream()
    Mixer().twice(tile.ones((N,), f32).sync_on(s), s)
    Mixer().twice_scaled(tile.ones((N,), f32).sync_on(s), s)
    on_an_object(s)
