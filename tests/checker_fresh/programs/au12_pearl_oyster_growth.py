# fresh-expect: clean
# fresh-note: Pearl oyster farm growth tracking; a shared-memory block-maximum kernel keeps every shared access inside `with simt.unsafe():`, and a timed fast path calls launch_unchecked inside its own unsafe block.
"""Nacre growth tracking for longline pearl oyster farms, one block per longline."""

from __future__ import annotations

import functools
import time

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread

PER_LINE = 64


@simt.kernel
@simt.launch_contract(block=PER_LINE)
def relative_growth(thickness: Slice[f32], relative: DisjointSlice[f32]) -> None:
    t = thread.thread_idx_x()
    idx = thread.index_1d()
    i = idx.get()
    with simt.unsafe():
        best = simt.shared_array(f32, PER_LINE)
        best[t] = thickness[i]
    thread.sync_threads()
    stride = PER_LINE // 2
    while stride > 0:
        if t < stride:
            with simt.unsafe():
                best[t] = max(best[t], best[t + stride])
        thread.sync_threads()
        stride = stride // 2
    with simt.unsafe():
        top = best[0]
    if (r := relative.get_mut(idx)) is not None:
        r.set(thickness[i] / top)


def timed(label: str):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                print(f"[{label}] {1000 * (time.perf_counter() - start):.1f} ms")
        return inner
    return wrap


@timed("checked")
def grade_checked(dev: sk.Device, stream: sk.Stream, thickness: sk.DeviceBuffer, out: sk.DeviceBuffer) -> None:
    prepared = relative_growth.prepare(simt.LaunchConfig1D.for_len(len(thickness), block=PER_LINE), dev)
    relative_growth.launch(prepared, stream, thickness, out)


@timed("unchecked")
def grade_fast(stream: sk.Stream, thickness: sk.DeviceBuffer, out: sk.DeviceBuffer, lines: int) -> None:
    config = simt.LaunchConfig1D(lines, PER_LINE)
    with simt.unsafe():
        relative_growth.launch_unchecked(config, stream, thickness, out)


def main() -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    rng = np.random.default_rng(30)
    lines = 3
    growth_mm = rng.gamma(3.0, 0.4, lines * PER_LINE).astype(np.float32)
    thickness = sk.to_device(growth_mm, stream)
    checked, fast = sk.zeros(len(growth_mm), f32, stream), sk.zeros(len(growth_mm), f32, stream)
    grade_checked(dev, stream, thickness, checked)
    grade_fast(stream, thickness, fast, lines)
    rel = checked.to_numpy(stream)
    assert np.array_equal(rel, fast.to_numpy(stream))
    for line in range(lines):
        block = rel[line * PER_LINE:(line + 1) * PER_LINE]
        print(f"longline {line}: {np.count_nonzero(block > 0.8)} oysters ready for seeding")


if __name__ == "__main__":
    main()
