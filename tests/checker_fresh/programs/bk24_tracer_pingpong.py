# fresh-expect: clean
# fresh-note: Twin of bk23: the ping-pong pair is built by a comprehension that allocates two buffers, so `pp.src` and `pp.dst` are always distinct memory.
"""Advection-diffusion of a passive tracer on a periodic 1-D grid, with ping-pong buffers and frame output.

The time stepper is a closure over a ping-pong pair; a generator yields a host copy of the tracer every few
steps, and a small context manager reports how long the run took.
"""

from __future__ import annotations

import contextlib
import time
from typing import Callable, Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def adv_diff(src: Slice[f32], dst: DisjointSlice[f32], c: f32, d: f32) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if i >= n:
        return
    left = src[(i + n - 1) % n]
    right = src[(i + 1) % n]
    mid = src[i]
    value = mid - c * (mid - left) + d * (left - f32(2.0) * mid + right)
    if (o := dst.get_mut(idx)) is not None:
        o.set(value)


class PingPong:
    def __init__(self, n: int, stream: sk.Stream, initial: np.ndarray) -> None:
        self.stream = stream
        self.fields = [sk.zeros(n, f32, stream) for _ in range(2)]
        self.fields[0].copy_from_numpy(initial)
        self.t = 0

    @property
    def src(self) -> sk.DeviceBuffer:
        return self.fields[self.t % 2]

    @property
    def dst(self) -> sk.DeviceBuffer:
        return self.fields[(self.t + 1) % 2]

    def flip(self) -> None:
        self.t += 1

    def snapshot(self) -> np.ndarray:
        return self.src.to_numpy(self.stream)


def make_stepper(pp: PingPong, device: sk.Device, courant: float, diffusion: float) -> Callable[[], None]:
    prepared = adv_diff.prepare(simt.LaunchConfig1D.for_len(len(pp.snapshot()), block=128), device)

    def step() -> None:
        adv_diff.launch(prepared, pp.stream, pp.src, pp.dst, courant, diffusion)
        pp.flip()

    return step


def frames(step: Callable[[], None], pp: PingPong, every: int, total: int) -> Iterator[tuple[int, np.ndarray]]:
    yield 0, pp.snapshot()
    for k in range(1, total + 1):
        step()
        if k % every == 0:
            yield k, pp.snapshot()


@contextlib.contextmanager
def timed(label: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        print(f"{label}: {time.perf_counter() - start:.3f} s")


def main() -> None:
    device = sk.Device.cpu()
    stream = device.new_stream()
    n = 256
    x = np.arange(n, dtype=np.float32) / n
    initial = np.exp(-((x - 0.3) / 0.05) ** 2).astype(np.float32)
    pp = PingPong(n, stream, initial)
    step = make_stepper(pp, device, courant=0.3, diffusion=0.1)
    with timed("tracer run"):
        for k, tracer in frames(step, pp, every=10, total=40):
            peak = int(np.argmax(tracer))
            print(f"step {k:3d}: mass {tracer.sum():8.4f}, peak at x = {peak / n:.3f}")
            if tracer.max() < 1e-3:
                break


if __name__ == "__main__":
    main()
