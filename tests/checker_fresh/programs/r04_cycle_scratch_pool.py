# fresh-expect: E0499 at line 38
# fresh-known-miss: cli,mypy items drawn with `next()` from an `itertools.cycle` a helper returns over a list comprehension of unknown length are new values (the helper's result is a new value to the caller; `pool = itertools.cycle([c])` and `iter([c, c])` bound in the function itself are followed), so `lo, hi = next(pool), next(pool)` of a one-buffer pool are not seen to alias
"""Scratch buffers are handed out round-robin with itertools.cycle; with a one-slot pool both outputs of a split
come from the same buffer."""
import itertools
from collections.abc import Iterator

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=64)
def split2(src: Slice[f32], lo: DisjointSlice[f32], hi: DisjointSlice[f32]) -> None:
    i = thread.index_1d().get()
    if (a := lo.get_mut(thread.index_1d())) is not None:
        a.set(src[i] * 0.5)
    if (b := hi.get_mut(thread.index_1d())) is not None:
        b.set(src[i] * 2.0)


def scratch_slots(n: int, slots: int, stream) -> Iterator[sk.DeviceBuffer]:
    return itertools.cycle([sk.zeros(n, f32, stream) for _ in range(slots)])


def main(config: dict[str, int]) -> None:
    dev = sk.Device.cpu()
    stream = dev.new_stream()
    n = config["n"]
    src = sk.to_device(np.arange(n, dtype=np.float32), stream)
    pool = scratch_slots(n, config["slots"], stream)
    lo, hi = next(pool), next(pool)
    prepared = split2.prepare(simt.LaunchConfig1D.for_len(n, block=64), dev)
    split2.launch(prepared, stream, src, lo, hi)  # BUG
    print(lo.to_numpy(stream)[:2], hi.to_numpy(stream)[:2])


if __name__ == "__main__":
    main({"n": 128, "slots": 1})
