# fresh-expect: clean
"""Repeated 3-point smoothing of a signal, ping-ponging between two buffers held in a deque."""
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


def reference(x: np.ndarray, passes: int) -> np.ndarray:
    for _ in range(passes):
        padded = np.concatenate([x[:1], x, x[-1:]])
        x = ((padded[:-2] + padded[1:-1] + padded[2:]) / np.float32(3.0)).astype(np.float32)
    return x


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 1000
    rng = np.random.default_rng(3)
    signal = rng.standard_normal(n).astype(np.float32)
    prep = smooth3.prepare(simt.LaunchConfig1D.for_len(n, block=128), dev)
    history = deque([sk.to_device(signal, stream), sk.zeros(n, f32, stream)], maxlen=2)
    for _ in range(4):
        src, dst = history[0], history[1]
        smooth3.launch(prep, stream, src, dst)
        history.rotate(1)  # the result becomes the next source
    result = history[0].to_numpy(stream)
    np.testing.assert_allclose(result, reference(signal, 4), rtol=1e-5, atol=1e-6)
    print("smoothed std", float(result.std()), "raw std", float(signal.std()))


if __name__ == "__main__":
    main()
