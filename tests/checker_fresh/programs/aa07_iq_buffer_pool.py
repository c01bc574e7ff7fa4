# fresh-expect: E0499 at line 58
# fresh-note: found since: a peek at the front of a deque attribute (`return self.free[0]`, calls.peeked_path) is the place `pool.free[0]` until the deque changes, so two acquires give one buffer
"""Software radio front end: split interleaved IQ samples into I and Q channels.

Output buffers come from a small pool so that a streaming receiver does not allocate per frame; each frame is
deinterleaved by a SIMT kernel and the channel powers are printed.
"""

from __future__ import annotations

from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels import DeviceBuffer
from safekernels.simt import DisjointSlice, Slice, thread

FRAME = 256


@simt.kernel
@simt.launch_contract(block=128)
def deinterleave(iq: Slice[f32], i_out: DisjointSlice[f32], q_out: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    k = idx.get()
    if k < len(i_out) and k < len(q_out):
        q_val = iq[2 * k + 1]
        if (o := i_out.get_mut(idx)) is not None:
            o.set(iq[2 * k])
        idx2 = thread.index_1d()
        if (p := q_out.get_mut(idx2)) is not None:
            p.set(q_val)


class BufferPool:
    def __init__(self, length: int, stream: sk.Stream, count: int = 4) -> None:
        self.length = length
        self.free: deque[DeviceBuffer] = deque(sk.zeros(length, f32, stream) for _ in range(count))

    def acquire(self) -> DeviceBuffer:
        if not self.free:
            raise RuntimeError("buffer pool exhausted")
        buf = self.free[0]
        return buf

    def release(self, *bufs: DeviceBuffer) -> None:
        self.free.extend(bufs)


def demodulate(frame: np.ndarray, pool: BufferPool, dev: sk.Device, stream: sk.Stream) -> tuple[float, float]:
    iq = sk.to_device(frame, stream)
    i_out, q_out = pool.acquire(), pool.acquire()
    prep = deinterleave.prepare(simt.LaunchConfig1D.for_len(pool.length, block=128), dev)
    try:
        deinterleave.launch(prep, stream, iq, i_out, q_out)
        i_pow = float(np.mean(i_out.to_numpy(stream) ** 2))
        q_pow = float(np.mean(q_out.to_numpy(stream) ** 2))
    finally:
        pool.release(i_out, q_out)
    return i_pow, q_pow


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    pool = BufferPool(FRAME, stream)
    rng = np.random.default_rng(11)
    for n in range(2):
        frame = rng.standard_normal(2 * FRAME).astype(np.float32)
        i_pow, q_pow = demodulate(frame, pool, dev, stream)
        print(f"frame {n}: P_I={i_pow:.3f} P_Q={q_pow:.3f}")


if __name__ == "__main__":
    main()
