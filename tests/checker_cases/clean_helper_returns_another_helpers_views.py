"""A helper whose body only returns another helper's call (`return lanes(buf, n, at)`) gives what that one
returns, with the caller's arguments: views of the caller's buffer with the bounds `lanes` computes.  Here the
second view starts where the first ends, so the launch reads one and writes the other."""

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

N = 64


@simt.kernel
@simt.launch_contract(block=64)
def shift(bias: Slice[f32], src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i] + bias[0])


def lanes(buf: sk.DeviceBuffer[f32], n: int, at: int) -> tuple[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32]]:
    return buf.view(0, n), buf.view(at, at + n)


def halves(buf: sk.DeviceBuffer[f32], n: int) -> tuple[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32]]:
    return lanes(buf, n, n)


class Layout:
    @staticmethod
    def split(buf: sk.DeviceBuffer[f32], n: int) -> tuple[sk.DeviceBuffer[f32], sk.DeviceBuffer[f32]]:
        return halves(buf, n)


def main() -> None:
    dev = sk.Device.cpu()
    s = dev.new_stream()
    bias = sk.zeros(1, f32, s)
    wide = sk.zeros(2 * N, f32, s)
    prepared = shift.prepare(simt.LaunchConfig1D.for_len(N, block=64), dev)
    src, dst = halves(wide, N)
    shift.launch(prepared, s, bias, src, dst)
    lo, hi = Layout.split(wide, N)
    shift.launch(prepared, s, bias, lo, hi)
