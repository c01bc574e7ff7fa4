# fresh-expect: E0133 at line 39
"""Fill a histogram of byte values with a raw launch, wrapped in a project-level 'trusted' context."""
from contextlib import contextmanager

import numpy as np

import safekernels as sk
from safekernels import simt
from safekernels.dtypes import u32
from safekernels.simt import AtomicSlice, Slice, thread


@simt.kernel
@simt.launch_contract(block=256)
def byte_hist(data: Slice[u32], counts: AtomicSlice[u32]) -> None:
    i = thread.index_1d().get()
    if i < len(data):
        counts.fetch_add(data[i] & u32(255), u32(1))


@contextmanager
def trusted(reason: str):
    """Mark a reviewed block of code that skips launch validation."""
    print("trusted block:", reason)
    with simt.unsafe():
        yield


def main() -> None:
    dev = sk.Device.default()
    stream = dev.new_stream()
    n = 10_000
    rng = np.random.default_rng(17)
    host = rng.integers(0, 1 << 20, n).astype(np.uint32)
    data = sk.to_device(host, stream)
    counts = sk.zeros(256, u32, stream)
    config = simt.LaunchConfig1D.for_len(n, block=256)
    with trusted("grid computed from len(data), block matches the contract"):
        byte_hist.launch_unchecked(config, stream, data, counts)
    got = counts.to_numpy(stream)
    np.testing.assert_array_equal(got, np.bincount(host & 255, minlength=256))
    print("most common byte", int(got.argmax()))


if __name__ == "__main__":
    main()
