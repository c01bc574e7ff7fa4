# fresh-expect: E0502 at line 68
# fresh-note: Block comb/echo filter whose `taps()` returns overlapping views of one history buffer (delay 48 < frame 128), and `process_block` passes the delayed view as Slice and the current view as the in-place DisjointSlice output.
"""A block-based feed-forward comb filter (echo): y[n] = x[n] + g * x[n - D].

The `EchoLine` keeps one device history buffer laid out as [D samples of the previous block | current block].
`taps()` returns the delayed window and the current window as views of that history, and `process_block`
adds the delayed window onto the current one, then the tail of the block is carried into the head for the next
block.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

BLOCK = 64
DELAY = 48
FRAME = 128


@simt.kernel
@simt.launch_contract(block=BLOCK)
def add_delayed(delayed: Slice[f32], io: DisjointSlice[f32], gain: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := io.get_mut(idx)) is not None:
        o.set(o.get() + gain * delayed[i])


@simt.kernel
@simt.launch_contract(block=BLOCK)
def copy_into(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    if (o := dst.get_mut(idx)) is not None:
        o.set(src[i])


class EchoLine:
    def __init__(self, dev: sk.Device, stream: sk.Stream, gain: float) -> None:
        self.stream = stream
        self.gain = gain
        self.history = sk.zeros(DELAY + FRAME, f32, stream)
        self.add_launch = add_delayed.prepare(simt.LaunchConfig1D.for_len(FRAME, block=BLOCK), dev)
        self.carry_launch = copy_into.prepare(simt.LaunchConfig1D.for_len(DELAY, block=BLOCK), dev)
        self.blocks = 0

    def taps(self) -> tuple[sk.DeviceBuffer, sk.DeviceBuffer]:
        delayed = self.history.view(0, FRAME)
        current = self.history.view(DELAY, DELAY + FRAME)
        return delayed, current

    def load(self, block: np.ndarray) -> None:
        host = self.history.to_numpy(self.stream)
        host[DELAY:] = block
        self.history.copy_from_numpy(host)

    def process_block(self, block: np.ndarray) -> np.ndarray:
        self.load(block)
        dry = self.history.to_numpy(self.stream)
        delayed, current = self.taps()
        add_delayed.launch(self.add_launch, self.stream, delayed, current, self.gain)
        wet = current.to_numpy(self.stream)
        # carry the dry tail of this block as the next block's delayed head
        tail = sk.to_device(dry[FRAME:], self.stream)
        copy_into.launch(self.carry_launch, self.stream, tail, self.history.view(0, DELAY))
        self.blocks += 1
        return wet


def blocks(signal: np.ndarray) -> Iterator[np.ndarray]:
    for start in range(0, signal.shape[0], FRAME):
        chunk = signal[start : start + FRAME]
        if chunk.shape[0] < FRAME:
            break
        yield chunk


def reference(x: np.ndarray, gain: float) -> np.ndarray:
    y = x.copy()
    y[DELAY:] += gain * x[:-DELAY]
    return y


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    t = np.arange(4 * FRAME, dtype=np.float32)
    x = (np.sin(0.1 * t) * (t % 200 < 20)).astype(np.float32)
    echo = EchoLine(dev, stream, gain=0.5)
    out = np.concatenate([echo.process_block(b) for b in blocks(x)])
    np.testing.assert_allclose(out, reference(x, 0.5), rtol=1e-5, atol=1e-6)
    print(f"{echo.blocks} blocks, output energy {float(np.sum(out**2)):.3f}")
    print("comb echo ok")


if __name__ == "__main__":
    main()
