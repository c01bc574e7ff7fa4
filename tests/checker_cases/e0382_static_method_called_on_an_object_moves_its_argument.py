"""A `@staticmethod` (or `@classmethod`) called on an object (`self.blend(t, s)`, `mixer.blend(t, s)`) runs as
called on its class: the tile launch inside moves the tensor the caller passes, so passing it again reads a moved
tensor.  The runtime raises inside the method, at the launch, on the second call."""

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
    def blend(t: sk.DeviceOp[f32], s: sk.Stream) -> sk.DeviceOp[f32]:
        z = tile.zeros((N,), f32).partition((16,))
        z, _t = copy_in(z, t).sync_on(s)  # expect: E0382
        return z.unpartition()

    @classmethod
    def scaled(cls, t: sk.DeviceOp[f32], s: sk.Stream) -> sk.DeviceOp[f32]:
        z = tile.zeros((N,), f32).partition((16,))
        z, _t = copy_in(z, t).sync_on(s)  # expect: E0382
        return z.unpartition()

    def twice(self, t: sk.DeviceOp[f32], s: sk.Stream) -> None:
        print(self.blend(t, s))
        print(self.blend(t, s))

    def twice_scaled(self, t: sk.DeviceOp[f32], s: sk.Stream) -> None:
        print(self.scaled(t, s))
        print(self.scaled(t, s))


def on_an_object(s: sk.Stream) -> None:
    mixer = Mixer()
    t = tile.ones((N,), f32).sync_on(s)
    print(mixer.blend(t, s))
    print(mixer.blend(t, s))


def main() -> None:
    s = sk.Device.cpu().new_stream()
    Mixer().twice(tile.ones((N,), f32).sync_on(s), s)
    Mixer().twice_scaled(tile.ones((N,), f32).sync_on(s), s)
    on_an_object(s)
