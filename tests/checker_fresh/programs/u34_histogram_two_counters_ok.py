# fresh-expect: clean
"""Joint histogram of an image with itself (the diagonal of a co-occurrence matrix) and a separate pixel counter."""

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import i32
from safekernels.simt import AtomicSlice, Slice, thread

BINS = 16


@simt.kernel
@simt.launch_contract(block=128)
def cooccur(a: Slice[i32], b: Slice[i32], joint: AtomicSlice[i32], seen: AtomicSlice[i32]) -> None:
    i = thread.index_1d().get()
    if i < len(a):
        joint.fetch_add((a[i] % 16) * 16 + b[i] % 16, i32(1))
        seen.fetch_add(0, i32(1))


def self_cooccurrence(image: np.ndarray, dev: sk.Device) -> tuple[np.ndarray, int]:
    stream = dev.new_stream()
    pixels = sk.to_device(image.ravel().astype(np.int32), stream)
    joint = sk.zeros(BINS * BINS, i32, stream)
    seen = sk.zeros(1, i32, stream)
    prep = cooccur.prepare(simt.LaunchConfig1D.for_len(image.size, block=128), dev)
    cooccur.launch(prep, stream, pixels, pixels, joint, seen)
    return joint.to_numpy(stream).reshape(BINS, BINS), int(seen.to_numpy(stream)[0])


if __name__ == "__main__":
    joint, seen = self_cooccurrence(np.arange(400).reshape(20, 20), sk.Device.cpu())
    print(np.trace(joint), seen)
