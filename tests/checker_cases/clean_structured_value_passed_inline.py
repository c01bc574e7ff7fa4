"""The clean twin of `e0502_structured_value_passed_inline`: objects built in the argument list whose fields are two
buffers (two arguments, or a new buffer the helper makes) are launched with without a conflict."""

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


def make_pair(c: sk.DeviceBuffer, stream: sk.Stream) -> Pair:
    return Pair(c, sk.zeros(64, f32, stream))


def run_pair(prep: simt.PreparedLaunch, stream: sk.Stream, pair: Pair) -> None:
    copy.launch(prep, stream, pair.src, pair.dst)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    prep = copy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    a = sk.zeros(64, f32, stream)
    c = sk.zeros(64, f32, stream)
    run_pair(prep, stream, make_pair(c, stream))
    run_pair(prep, stream, Pair(a, c))
    print(c.to_numpy(stream)[:3])


if __name__ == "__main__":
    main()
