"""A `@simt.device` helper parameter annotated `SharedArray[T]` is a shared array: indexing it needs unsafe."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, SharedArray, Slice, thread


@simt.device
def stash(buf: SharedArray[f32], t: int, v: f32) -> None:
    buf[t] = v  # expect: E0133


@simt.kernel
@simt.launch_contract(block=128)
def staged_copy(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    t = thread.thread_idx_x()
    with simt.unsafe():
        buf = simt.shared_array(f32, 128)
    stash(buf, t, src[i])
    thread.sync_threads()
    if (o := dst.get_mut(idx)) is not None:
        with simt.unsafe():
            o.set(buf[t])


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    src = sk.to_device(np.arange(256, dtype=np.float32), stream)
    dst = sk.zeros(256, f32, stream)
    staged_copy.launch(staged_copy.prepare(simt.LaunchConfig1D.for_len(256, block=128), dev), stream, src, dst)
    print(dst.to_numpy(stream)[:4])
