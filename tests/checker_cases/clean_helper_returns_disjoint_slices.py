"""The clean twin of `e0499_helper_returns_overlapping_slices`: a helper returning slices of its parameter with
literal bounds that do not overlap hands back two disjoint views of the caller's buffer, and a helper returning
slices of a buffer it made itself hands back views of that new buffer; so does a helper returning one slice."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


def halves(buf: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return buf[:128], buf[128:]


def view_halves(buf: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return buf.view(0, 128), buf.view(128, 256)


def fresh_halves(buf: sk.DeviceBuffer, stream: sk.Stream) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    buf = sk.zeros(256, f32, stream)
    return buf[:129], buf[128:]


def upper(buf: sk.DeviceBuffer) -> sk.DeviceBuffer:
    return buf[128:]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(256, dtype=np.float32), stream)
    packed = sk.zeros(256, f32, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    head, tail = halves(packed)
    split2.launch(prepared, stream, src, head, tail)
    lo, hi = view_halves(packed)
    split2.launch(prepared, stream, src, lo, hi)
    first, _ = fresh_halves(packed, stream)
    split2.launch(prepared, stream, src, first, packed[128:])
    top = upper(packed)
    split2.launch(prepared, stream, src, packed[:128], top)
    print(packed.to_numpy(stream)[126:130])
