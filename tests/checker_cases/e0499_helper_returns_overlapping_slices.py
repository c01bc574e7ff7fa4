"""A helper cuts its parameter into two slices and returns them (`return buf[: mid + 1], buf[mid:]`): the caller's
halves are views of its buffer, and with computed bounds they may overlap, as the same slices written inline may:
both as outputs of one launch is E0499 (the runtime refuses the overlapping ranges).  A helper returning one slice
(`return buf[n // 2 - 1 :]`) is a view of its argument too."""

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


def halves(buf: sk.DeviceBuffer, n: int) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    mid = n // 2
    return buf[: mid + 1], buf[mid:]


def literal_halves(buf: sk.DeviceBuffer) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
    return buf.view(0, 160), buf.view(128, 256)


def upper(buf: sk.DeviceBuffer, n: int) -> sk.DeviceBuffer:
    return buf[n // 2 - 1 :]


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(256, dtype=np.float32), stream)
    packed = sk.zeros(256, f32, stream)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(128, block=64), dev)
    head, tail = halves(packed, 256)
    split2.launch(prepared, stream, src, head, tail)  # expect: E0499
    lo, hi = literal_halves(packed)
    split2.launch(prepared, stream, src, lo, hi)  # expect: E0499
    top = upper(packed, 256)
    split2.launch(prepared, stream, src, packed[:128], top)  # expect: E0499
