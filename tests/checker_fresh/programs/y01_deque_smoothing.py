# fresh-expect: E0502 at line 37
# fresh-note: found since: a bounded deque as long as its display (deque([a, b], maxlen=2)) is a container whose append drops item 0 and shifts the others (calls.ring_shift), so the next pass's source is the destination
"""Repeated 3-point smoothing of a signal, keeping the last two buffers in a bounded deque."""
from collections import deque

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import f32
from safekernels.simt import DisjointSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=128)
def smooth3(src: Slice[f32], dst: DisjointSlice[f32]) -> None:
    idx = thread.index_1d()
    i = idx.get()
    n = len(src)
    if (out := dst.get_mut(idx)) is not None:
        lo = max(i - 1, 0)
        hi = min(i + 1, n - 1)
        out.set((src[lo] + src[i] + src[hi]) / f32(3.0))


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 1000
    rng = np.random.default_rng(3)
    signal = rng.standard_normal(n).astype(np.float32)
    prep = smooth3.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    history = deque([sk.to_device(signal, stream), sk.zeros(n, f32, stream)], maxlen=2)
    for _ in range(4):
        src = history[0]
        dst = history[-1]
        smooth3.launch(prep, stream, src, dst)
        history.append(dst)  # newest result goes to the back
    result = history[-1].to_numpy(stream)
    print("smoothed std", float(result.std()), "raw std", float(signal.std()))
    assert result.std() < signal.std()


if __name__ == "__main__":
    main()
