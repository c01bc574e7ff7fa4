"""`operator.attrgetter` / `operator.itemgetter` give the operand's attributes and items themselves (a tuple of
them when several names are given), called directly or through a name bound once to the getter: a job whose
`raw` and `out` are one buffer is read and written by one launch (the runtime raises `AliasingError`)."""

import dataclasses
import operator
from operator import attrgetter

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


@dataclasses.dataclass
class Job:
    raw: sk.DeviceBuffer
    out: sk.DeviceBuffer


io_of = attrgetter("raw", "out")


def spread(stream: sk.Stream, prepared: simt.PreparedLaunch, job: Job) -> None:
    copy.launch(prepared, stream, *io_of(job))  # expect: E0502


def direct(stream: sk.Stream, prepared: simt.PreparedLaunch, job: Job) -> None:
    copy.launch(prepared, stream, attrgetter("raw")(job), attrgetter("out")(job))  # expect: E0502


def items(stream: sk.Stream, prepared: simt.PreparedLaunch, a: sk.DeviceBuffer) -> None:
    bufs = [a, sk.zeros(64, f32, stream), a]
    src, dst = operator.itemgetter(0, 2)(bufs)
    copy.launch(prepared, stream, src, dst)  # expect: E0502


if __name__ == "__main__":
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    launch = copy.prepare(simt.LaunchConfig1D.for_len(64, block=64), dev)
    buf = sk.zeros(64, f32, stream)
    spread(stream, launch, Job(buf, buf))
    direct(stream, launch, Job(buf, buf))
    items(stream, launch, buf)
