# fresh-expect: E0502 at line 52
# A helper returns a dataclass whose field may be a conditional alias of another local.
"""Separable unsharp mask: a horizontal pass into `tmp`, a vertical-ish pass into `dst`, buffers kept in a plan."""

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


def make_buffers(img: np.ndarray, stream, low_memory: bool) -> ImageBuffers:
    src = sk.to_device(img.astype(np.float32), stream)
    dst = sk.zeros(img.size, f32, stream)
    tmp = src if low_memory else sk.zeros(img.size, f32, stream)  # "reuse the input when memory is tight"
    return ImageBuffers(src=src, tmp=tmp, dst=dst)


def unsharp(img: np.ndarray, dev: sk.Device, low_memory: bool = True) -> np.ndarray:
    stream = dev.new_stream()
    bufs = make_buffers(img, stream, low_memory)
    cfg = simt.LaunchConfig1D.for_len(img.size, block=64)
    smooth.launch(smooth.prepare(cfg, dev), stream, bufs.src, bufs.tmp)
    sharpen.launch(sharpen.prepare(cfg, dev), stream, bufs.src, bufs.tmp, bufs.dst, 0.8)
    return bufs.dst.to_numpy(stream)


if __name__ == "__main__":
    dev = sk.Device.cpu()
    print(unsharp(np.linspace(0.0, 1.0, 300, dtype=np.float32), dev)[:4])
