# fresh-expect: E0308 at line 57
"""A filter plugin system: each plugin class prepares its launch once, in a classmethod, on a class attribute."""
from typing import ClassVar, Optional

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def blur(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set((src[max(i - 1, 0)] + src[i] + src[min(i + 1, len(src) - 1)]) / f32(3.0))


@simt.kernel
@simt.launch_contract(block=256)
def sharpen(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] * f32(2.0) - (src[max(i - 1, 0)] + src[min(i + 1, len(src) - 1)]) / f32(2.0))


class BlurPlugin:
    launch: ClassVar[Optional[simt.PreparedLaunch]] = None

    @classmethod
    def setup(cls, dev: sk.Device, n: int) -> None:
        cls.launch = blur.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)


class SharpenPlugin:
    launch: ClassVar[Optional[simt.PreparedLaunch]] = None

    @classmethod
    def setup(cls, dev: sk.Device, n: int) -> None:
        cls.launch = sharpen.prepare(simt.LaunchConfig1D.for_len(n, block=256), dev)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = 1024
    BlurPlugin.setup(dev, n)
    SharpenPlugin.setup(dev, n)
    img = sk.to_device(np.random.default_rng(1).random(n, dtype=np.float32), stream)
    soft = sk.zeros(n, f32, stream)
    crisp = sk.zeros(n, f32, stream)
    blur.launch(BlurPlugin.launch, stream, img, soft)
    sharpen.launch(BlurPlugin.launch, stream, soft, crisp)  # copy-pasted the plugin class name
    print(crisp.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
