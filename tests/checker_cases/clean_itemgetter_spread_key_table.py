"""The buffers a step reads and writes are picked from a dict by `operator.itemgetter(*STEP_ROLES[step])`, the
role names a module-level table of tuples of literal keys: each step's getter gives two distinct buffers of the
dict (the "swap" step in the other order), so no launch aliases."""

import operator
from typing import Any

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

STEP_ROLES = {"copy": ("src", "dst"), "swap": ("dst", "src")}


@simt.kernel
@simt.launch_contract(block=32)
def scale(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(2.0 * src[i])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    bufs: dict[str, Any] = {"src": sk.to_device(np.ones(64, np.float32), stream), "dst": sk.zeros(64, f32, stream)}
    p = scale.prepare(simt.LaunchConfig1D.for_len(64, block=32), dev)
    copy = operator.itemgetter(*STEP_ROLES["copy"])
    scale.launch(p, stream, *copy(bufs))
    swap = operator.itemgetter(*STEP_ROLES["swap"])
    scale.launch(p, stream, *swap(bufs))


if __name__ == "__main__":
    main()
