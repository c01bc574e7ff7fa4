"""An object built in a call's argument list, by a constructor of the module (`run_pair(prep, s, Pair(c, c))`) or by
a helper returning one (`run_pair(prep, s, make_pair(c))`), handed to a helper that launches with its fields: the
fields are the objects the constructor was given, so one buffer as both is a conflict at the call."""

from dataclasses import dataclass

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def copy(x: Slice[f32], out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := out.get_mut(idx)) is not None:
        o.set(x[i])


@dataclass
class Pair:
    src: sk.DeviceBuffer
    dst: sk.DeviceBuffer


def make_pair(c: sk.DeviceBuffer) -> Pair:
    return Pair(c, c)


def run_pair(prep: simt.PreparedLaunch, stream: sk.Stream, pair: Pair) -> None:
    copy.launch(prep, stream, pair.src, pair.dst)  # expect: E0502


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = copy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    c = sk.zeros(64, f32, stream)
    run_pair(prep, stream, make_pair(c))
    run_pair(prep, stream, Pair(c, c))  # expect: E0502


if __name__ == "__main__":
    main()
