# fresh-expect: E0133 at line 37
# fresh-known-miss: mypy a launch_unchecked on an unannotated parameter (`kernel`, typed Any): mypy runs no plugin hook on a call on an Any receiver, so only the CLI sees the launch outside `with simt.unsafe()`
# fresh-note: Ferris-wheel boarding simulation with a kernel built by a factory and a "fast" runner closure that calls launch_unchecked; the caller wraps its calls of the closure in `with simt.unsafe():`, but unsafe is lexical, so the closure's own launch_unchecked is outside any unsafe block.
"""Gondola boarding on an observation wheel, rotation by rotation."""
from __future__ import annotations
from typing import Callable

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

GONDOLAS = 1024
ROTATIONS = 4


def make_boarding_kernel(block: int):
    @simt.kernel
    @simt.launch_contract(block=block)
    def board(queue: Slice[f32], capacity: Slice[f32], boarded: DisjointSlice[f32]) -> None:
        idx = thread.index_1d()
        i = idx.get()
        if (o := boarded.get_mut(idx)) is not None:
            o.set(min(queue[i], capacity[i]))

    return board


def fast_runner(kernel, n: int, stream: sk.Stream) -> Callable[..., None]:
    """Skip prepare() on every rotation: the config below is fixed and was validated once."""
    block = kernel.contract.block[0]
    cfg = simt.LaunchConfig1D.for_len(n, block=block)

    def run(*buffers: sk.DeviceBuffer) -> None:
        kernel.launch_unchecked(cfg, stream, *buffers)

    return run


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    board = make_boarding_kernel(128)
    board.prepare(simt.LaunchConfig1D.for_len(GONDOLAS, block=128), dev)  # validated once, up front

    rng = np.random.default_rng(5)
    capacity = sk.to_device(np.full(GONDOLAS, 8.0, np.float32), stream)
    run = fast_runner(board, GONDOLAS, stream)
    total = 0.0
    for rotation in range(ROTATIONS):
        queue = sk.to_device(rng.poisson(6.0, GONDOLAS).astype(np.float32), stream)
        boarded = sk.zeros(GONDOLAS, f32, stream)
        with simt.unsafe():  # throughput mode
            run(queue, capacity, boarded)
        riders = float(boarded.to_numpy(stream).sum())
        total += riders
        print(f"rotation {rotation}: {riders:.0f} riders")
    print(f"total {total:.0f}")


if __name__ == "__main__":
    main()
