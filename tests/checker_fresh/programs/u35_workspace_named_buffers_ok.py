# fresh-expect: clean
"""Unsharp mask with a dataclass of buffers, each freshly allocated; the scratch buffer is reused for a final pass."""

from dataclasses import dataclass

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def smooth(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        j = i + 1 if i + 1 < len(src) else i
        o.set(0.5 * (src[i] + src[j]))


@simt.kernel
@simt.launch_contract(block=64)
def sharpen(src: Slice[f32], blurred: Slice[f32], dst: DisjointSlice[f32], amount: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + amount * (src[i] - blurred[i]))


@dataclass
class ImageBuffers:
    src: sk.DeviceBuffer
    tmp: sk.DeviceBuffer
    dst: sk.DeviceBuffer


def make_buffers(img: np.ndarray, stream) -> ImageBuffers:
    src = sk.to_device(img.astype(np.float32), stream)
    tmp, dst = (sk.zeros(img.size, f32, stream) for _ in range(2))
    return ImageBuffers(src=src, tmp=tmp, dst=dst)


def unsharp(img: np.ndarray, dev: sk.Device) -> np.ndarray:
    stream = dev.new_stream()
    bufs = make_buffers(img, stream)
    cfg = simt.LaunchConfig1D.for_len(img.size, block=64)
    smooth.launch(smooth.prepare(cfg, dev), stream, bufs.src, bufs.tmp)
    sharpen.launch(sharpen.prepare(cfg, dev), stream, bufs.src, bufs.tmp, bufs.dst, 0.8)
    smooth.launch(smooth.prepare(cfg, dev), stream, bufs.dst, bufs.tmp)  # reuse tmp for a final soften
    return bufs.tmp.to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(unsharp(np.linspace(0.0, 1.0, 300, dtype=np.float32), dev)[:4])
